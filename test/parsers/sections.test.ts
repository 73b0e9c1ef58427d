import { describe, expect, it } from 'vitest';
import { splitSections, type FilingSection } from '../../ingest/parsers/documents/sections.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

const byKey = (sections: FilingSection[]) => new Map(sections.map((section) => [section.key, section]));
const markup = /<\/?[a-z][\w:-]*[\s>]|ix:|xbrli:|contextRef/i;

describe('splitSections on a hand-written 10-K', () => {
  const load = async () => splitSections('10-K', await fixture('sections/10-K_example.html'));

  it('finds each item the filing has, in order, and skips the contents table', async () => {
    const sections = await load();
    expect(sections.map((section) => section.key)).toEqual(['item_1', 'item_1a', 'item_1b', 'item_2', 'item_5', 'item_6', 'item_7', 'item_8', 'item_10', 'item_15', 'item_16']);
    expect(sections.map((section) => section.ordinal)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // A contents row would have been taken with no body at all.
    expect(byKey(sections).get('item_1')!.text).toMatch(/^Example Widgets, Inc\. designs, manufactures and sells industrial widgets to customers in 14 countries\./);
  });

  it('keeps a cross-reference that starts a line inside the section it belongs to', async () => {
    const business = byKey(await load()).get('item_1')!;
    expect(business.title).toBe('Business');
    expect(business.text).toContain('Item 1A of this Form 10-K describes the risks');
    expect(business.text).not.toContain('Demand for widgets');
  });

  it('reads a title set below its label and rejoins a paragraph split by a page break', async () => {
    const risks = byKey(await load()).get('item_1a')!;
    expect(risks.title).toBe('Risk Factors');
    expect(risks.text).toContain('a disruption at either of them could halt widget production');
    expect(risks.text).not.toMatch(/Table of Contents|Form 10-K \||^\d+$/m);
    expect(risks.text).not.toContain('Unresolved Staff Comments');
  });

  it('keeps "None." items, empty [Reserved] items and items incorporated by reference', async () => {
    const sections = byKey(await load());
    expect(sections.get('item_1b')!.text).toBe('None.');
    expect(sections.get('item_6')).toMatchObject({ title: '[Reserved]', text: '' });
    expect(sections.get('item_10')!.text).toBe('The information required by this Item will be included in the Company’s 2025 Proxy Statement and is incorporated herein by reference.');
    expect(sections.get('item_16')!.text).toBe('None.');
  });

  it('leaves page numbers, Part headings and signatures out of the sections around them', async () => {
    const sections = byKey(await load());
    expect(sections.get('item_2')!.text).toBe('The Company’s headquarters and main plant are in Dayton, Ohio.');
    expect(sections.get('item_16')!.text).not.toMatch(/SIGNATURES|Pursuant to the requirements/);
  });

  it('renders tables as rows with values as filed and no markup', async () => {
    const sections = await load();
    const mdna = byKey(sections).get('item_7')!;
    expect(mdna.text).toMatch(/^Net sales\s+\$1,234\.5\s+\$1,100\.0$/m);
    expect(mdna.text).toMatch(/^Gross margin\s+401\.2\s+352\.9$/m);
    for (const section of sections) expect(section.text).not.toMatch(markup);
  });

  it('treats amendments like the original form and returns nothing for other forms', async () => {
    const html = await fixture('sections/10-K_example.html');
    expect(splitSections('10-K/A', html).map((section) => section.key)).toContain('item_1a');
    expect(splitSections('8-K', html)).toEqual([]);
    expect(splitSections('S-1', html)).toEqual([]);
  });
});

describe('splitSections on a hand-written 10-Q', () => {
  const load = async () => splitSections('10-Q', await fixture('sections/10-Q_example.html'));

  it('qualifies items by their Part and ignores the linked contents table', async () => {
    const sections = await load();
    expect(sections.map((section) => section.key)).toEqual([
      'part1_item1',
      'part1_item2',
      'part1_item3',
      'part1_item4',
      'part2_item1',
      'part2_item1a',
      'part2_item2',
      'part2_item3',
      'part2_item4',
      'part2_item5',
      'part2_item6',
    ]);
    const byPart = byKey(sections);
    expect(byPart.get('part1_item1')).toMatchObject({ title: 'Financial Statements' });
    expect(byPart.get('part1_item1')!.text).toMatch(/^Net sales\s+\$ 321\.7\s+\$ 298\.4$/m);
    expect(byPart.get('part2_item1')).toMatchObject({ title: 'Legal Proceedings' });
    expect(byPart.get('part2_item1')!.text).toBe('A former distributor sued the Company in Ohio state court in March 2025 over the termination of its contract.');
  });

  it('does not let the last contents row swallow the text before Part I', async () => {
    const exhibits = byKey(await load()).get('part2_item6')!;
    expect(exhibits.text).toContain('31.1');
    expect(exhibits.text).not.toMatch(/forward-looking|SIGNATURE/);
  });

  it('splits a heading that carries its own body on the same line', async () => {
    const sections = byKey(await load());
    expect(sections.get('part2_item3')).toMatchObject({ title: 'Defaults Upon Senior Securities', text: 'None.' });
    expect(sections.get('part2_item4')!.text).toBe('Not applicable.');
  });

  it('reads the 10-Q out of a full-submission container', async () => {
    const html = await fixture('sections/10-Q_example.html');
    const container = [
      '<SEC-DOCUMENT>0009999999-25-000042.txt : 20250801',
      '<SEC-HEADER>0009999999-25-000042.hdr.sgml : 20250801',
      'ACCESSION NUMBER:\t\t0009999999-25-000042',
      'CONFORMED SUBMISSION TYPE:\t10-Q',
      '</SEC-HEADER>',
      '<DOCUMENT>',
      '<TYPE>10-Q',
      '<SEQUENCE>1',
      '<FILENAME>exw-20250628.htm',
      '<TEXT>',
      html,
      '</TEXT>',
      '</DOCUMENT>',
      '</SEC-DOCUMENT>',
    ].join('\n');
    expect(splitSections('10-Q', container).map((section) => section.key)).toEqual((await load()).map((section) => section.key));
  });
});

describe('splitSections on a plain-text 10-K', () => {
  it('finds headings in text filed without HTML', () => {
    const text = ['PART I', '', 'ITEM 1.  BUSINESS', '', 'The Registrant makes widgets.', '', 'ITEM 2.  PROPERTIES', '', 'The Registrant leases a plant in Dayton, Ohio.', '', 'SIGNATURES'].join('\n');
    expect(splitSections('10-K', text)).toEqual([
      { key: 'item_1', title: 'BUSINESS', text: 'The Registrant makes widgets.', ordinal: 1 },
      { key: 'item_2', title: 'PROPERTIES', text: 'The Registrant leases a plant in Dayton, Ohio.', ordinal: 2 },
    ]);
  });
});

describe.runIf(hasCorpus)('splitSections on the corpus 10-K and 10-Q filings', () => {
  const tenKs = {
    apple: 'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html',
    nvidia: 'filings/10k/10-K_0001045810-25-000023_NVDA_FY2025.html',
    tesla: 'filings/10k/10-K_0001628280-25-003063_TSLA_FY2024.html',
  };
  const allTenKItems = ['item_1', 'item_1a', 'item_1b', 'item_1c', 'item_2', 'item_3', 'item_4', 'item_5', 'item_6', 'item_7', 'item_7a', 'item_8', 'item_9', 'item_9a', 'item_9b', 'item_9c', 'item_10', 'item_11', 'item_12', 'item_13', 'item_14', 'item_15', 'item_16'];
  const split = async (form: string, file: string) => splitSections(form, await corpusFile(file));

  it.each(Object.entries(tenKs))('finds every 10-K item of %s, once each, in document order, without markup', async (_, file) => {
    const sections = await split('10-K', file);
    expect(sections.map((section) => section.key)).toEqual(allTenKItems);
    expect(sections.map((section) => section.ordinal)).toEqual(allTenKItems.map((_, index) => index + 1));
    for (const section of sections) {
      expect(section.text).not.toMatch(markup);
      expect(section.text).not.toMatch(/^Table of Contents$/m);
      expect(section.text, 'a page number').not.toMatch(/^\d{1,3}$/m);
    }
    // The contents table lists Risk Factors too; the real section is the long one.
    expect(byKey(sections).get('item_1a')!.text.length).toBeGreaterThan(20_000);
  });

  it('gives NVIDIA its Risk Factors and nothing of the items after them', async () => {
    const risks = byKey(await split('10-K', tenKs.nvidia)).get('item_1a')!;
    expect(risks.title).toBe('Risk Factors');
    expect(risks.text).toMatch(/^The following risk factors should be considered in addition to the other information in this Annual Report on Form 10-K\./);
    expect(risks.text).toContain('Over the past three years, we have been subject to a series of shifting and expanding export control restrictions, impacting our ability to serve customers outside the United States.');
    expect(risks.text).not.toContain('Unresolved Staff Comments');
    expect(risks.text).not.toContain('Our headquarters is in Santa Clara, California.');
  });

  it('keeps NVIDIA’s short items, which point elsewhere or say not applicable', async () => {
    const sections = byKey(await split('10-K', tenKs.nvidia));
    expect(sections.get('item_1b')!.text).toBe('Not applicable.');
    expect(sections.get('item_8')!.text).toMatch(/^The information required by this Item is set forth in our Consolidated Financial Statements/);
    expect(sections.get('item_6')!.title).toBe('[Reserved]');
  });

  it('gives Apple’s MD&A its net sales table with the totals as printed, without page footers', async () => {
    const sections = byKey(await split('10-K', tenKs.apple));
    const mdna = sections.get('item_7')!;
    expect(mdna.title).toBe('Management’s Discussion and Analysis of Financial Condition and Results of Operations');
    expect(mdna.text).toMatch(/^Total net sales\s+\$\s+391,035\s+2\s+%\s+\$\s+383,285\s+\(3\)\s+%\s+\$\s+394,328$/m);
    expect(mdna.text).not.toContain('Apple Inc. | 2024 Form 10-K |');
    expect(sections.get('item_1b')!.text).toBe('None.');
    expect(sections.get('item_11')!.text).toMatch(/2025 Proxy Statement, and is incorporated herein by reference\.$/);
    expect(sections.get('item_16')!.text).toBe('None.');
  });

  it('keeps Tesla’s upper-case headings as filed', async () => {
    const sections = byKey(await split('10-K', tenKs.tesla));
    expect(sections.get('item_1a')!.title).toBe('RISK FACTORS');
    expect(sections.get('item_7a')!.text).toMatch(/^Foreign Currency Risk\n/);
    expect(sections.get('item_7')!.text).not.toContain('QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK');
  });

  it('splits Apple’s 10-Q into Part I and Part II items', async () => {
    const sections = await split('10-Q', 'filings/10q/10-Q_0000320193-25-000073_AAPL_Q3FY2025.html');
    expect(sections.map((section) => section.key)).toEqual([
      'part1_item1',
      'part1_item2',
      'part1_item3',
      'part1_item4',
      'part2_item1',
      'part2_item1a',
      'part2_item2',
      'part2_item3',
      'part2_item4',
      'part2_item5',
      'part2_item6',
    ]);
    const byPart = byKey(sections);
    const mdna = byPart.get('part1_item2')!;
    expect(mdna.title).toBe('Management’s Discussion and Analysis of Financial Condition and Results of Operations');
    expect(mdna.text).toMatch(/^Total net sales\s+\$\s+94,036\s+\$\s+85,777\s+10\s+%\s+\$\s+313,695\s+\$\s+296,105\s+6\s+%$/m);
    expect(byPart.get('part2_item1a')!.title).toBe('Risk Factors');
    expect(byPart.get('part2_item1a')!.text).toMatch(/there have been no material changes to the Company’s risk factors since the 2024 Form 10-K\.$/);
    expect(byPart.get('part2_item3')!.text).toBe('None.');
  });
});
