// An offering document's terms (ingest/parsers/offerings/dilutionTerms.ts) become dilution records linked to
// the offering by its filing: warrants issued, lock-ups, rights of first refusal, each with the
// sentence it was read from. Values are checked against the prospectus's own text.
import { describe, expect, it } from 'vitest';
import { dilutionTermsOfFiling } from '../../ingest/parsers/offerings/dilutionTerms.ts';
import { termRows, termsSummary } from '../../derived/dilution/materialize.ts';
import { corpusFile, hasCorpus } from '../corpus.ts';

const event = { date: new Date('2024-11-01T00:00:00Z'), orderedAt: new Date('2024-11-01T00:00:00Z'), accessionNumber: '0001104659-24-132924', form: '424B4', filedAt: null, citationUrl: 'https://www.sec.gov/Archives/edgar/data/1130598/000110465924132924/tm2427593-4_424b4.htm' };

describe.runIf(hasCorpus)('offering terms as dilution records', () => {
  it('Traws Pharma 424B4: warrants, lock-ups and NTBV dilution, each cited to its own sentence', async () => {
    const name = '424B4_0001104659-24-132924_Traws-Pharma.txt';
    const raw = await corpusFile(`filings/offerings/${name}`);
    const { terms, text } = dilutionTermsOfFiling({ text: raw, name });
    const rows = termRows('0001130598', '0001104659-24-132924', event, terms);
    const flat = text.replace(/\s+/g, ' ');
    for (const r of rows) {
      expect(r).toMatchObject({ cik: '0001130598', accessionNumber: event.accessionNumber, citationUrl: event.citationUrl, method: 'offering_document' });
      for (const span of r.sourceSpan.split(' … ')) expect(text).toContain(span);
      expect(r.id).toMatch(/^dil_[0-9a-f]{32}$/);
    }
    const seriesA = rows.find((r) => r.kind === 'warrant' && r.values.series === 'Series A')!;
    expect(seriesA.values).toMatchObject({ warrantKind: 'common', exercisePrice: 13.42, term: { years: 5 } });
    expect(flat).toMatch(/\$13\.42/);
    const preFunded = rows.find((r) => r.kind === 'warrant' && r.values.warrantKind === 'pre_funded')!;
    expect(preFunded.values).toMatchObject({ exercisePrice: 0.01, term: { perpetual: true } });
    expect(flat).toMatch(/\$0\.01/);
    const lockup = rows.find((r) => r.kind === 'lockup' && (r.values.parties as string[]).includes('officers'))!;
    expect(lockup.values).toMatchObject({ length: 90, unit: 'days' });
    expect(lockup.sourceSpan).toMatch(/90 days/);
    // ids are stable: the same document read again gives the same records
    expect(termRows('0001130598', '0001104659-24-132924', event, dilutionTermsOfFiling({ text: raw, name }).terms).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    const summary = termsSummary(terms);
    expect(summary.ntbvPerShareBefore).toMatchObject({ value: -0.339 });
    expect(summary.ntbvPerShareAfter).toMatchObject({ value: 0.057 });
    expect(summary.dilutionPerShare).toMatchObject({ value: 5.046 });
    for (const figure of [summary.ntbvPerShareBefore, summary.ntbvPerShareAfter, summary.dilutionPerShare]) expect(text).toContain(figure!.sourceSpan);
    expect(flat).toMatch(/5\.046/);
  });
});
