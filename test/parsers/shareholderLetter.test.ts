// The shareholder letter of N-CSR reports in the shapes funds write them: a headed letter, a letter
// that opens with its salutation alone, several funds' letters in one report, a signer and title on
// one line, the report inside a full EDGAR submission, a tailored shareholder report (no letter),
// and a report whose Item 1 has neither letter nor discussion.
import { describe, expect, it } from 'vitest';
import { parseShareholderLetter } from '../../ingest/parsers/funds/shareholderLetter.ts';
import { fullReport, tailoredReport } from '../support/ncsrDocuments.ts';

const registrant = { cik: '0000912345', name: 'Example Growth Trust', fileNumber: '811-09999' };

const report = (item1: string) => `<html><body>
<p>FORM N-CSR</p><p>Example Growth Trust</p><p>(Exact name of registrant as specified in charter)</p>
<p>Date of reporting period: June 30, 2022</p>
<p>Item 1. Reports to Stockholders.</p>
${item1}
<p>Item 2. Code of Ethics.</p><p>The registrant has adopted a code of ethics.</p>
</body></html>`;

describe('N-CSR shareholder letter', () => {
  it('reads a headed letter, the discussion after it, the period, the registrant and the signers', () => {
    const letter = parseShareholderLetter(
      fullReport(registrant, {
        periodEnd: 'December 31, 2023',
        periodLabel: 'December 31, 2023',
        fund: 'Example Growth Fund',
        letter: { heading: 'Letter to Shareholders', paragraphs: ['Markets rallied in 2023 as inflation cooled and the Federal Reserve paused.'], signers: [{ name: 'Jane Q. Doe', title: 'President' }, { name: 'Robert Lee', title: 'Chairman of the Board of Trustees' }] },
        discussion: ['The Fund outperformed because of its overweight in information technology.'],
      }),
    );
    expect(letter).toMatchObject({ shape: 'full_report', periodEnd: '2023-12-31', registrantName: 'Example Growth Trust', fundNames: [] });
    expect(letter.sections.map((s) => [s.key, s.kind, s.title, s.ordinal])).toEqual([
      ['letter', 'letter', 'Letter to Shareholders', 1],
      ['letter_1', 'performance_discussion', 'Management\'s Discussion of Fund Performance', 2],
    ]);
    expect(letter.signers).toEqual([{ name: 'Jane Q. Doe', title: 'President' }, { name: 'Robert Lee', title: 'Chairman of the Board of Trustees' }]);
  });

  it('opens a letter at its salutation when it has no heading, and splits two funds\' letters', () => {
    const letter = parseShareholderLetter(
      report(`
<p>Example Growth Fund</p><p>Semi-Annual Report</p>
<p>Dear Fellow Shareholders:</p>
<p>The first half of 2022 was among the worst for stocks and bonds together in decades.</p>
<p>Respectfully submitted,</p><p>John A. Smith, President and Chief Investment Officer</p>
<p>Example Income Fund</p>
<p>Dear Shareholder,</p>
<p>Rising rates lowered bond prices; the Fund shortened its duration early in the year.</p>
<p>Sincerely,</p><p>Mary Major</p><p>Portfolio Manager</p>
<p>Schedule of Investments</p><p>U.S. Treasury Notes 2.5% 2027 ... 1,000,000</p>`),
    );
    expect(letter.periodEnd).toBe('2022-06-30');
    expect(letter.sections.map((s) => [s.key, s.title])).toEqual([
      ['letter', 'Dear Fellow Shareholders'],
      ['letter_1', 'Dear Shareholder'],
    ]);
    expect(letter.sections[0]!.text).toMatch(/^Dear Fellow Shareholders:\n\nThe first half of 2022/);
    expect(letter.sections[0]!.text).not.toContain('Rising rates');
    expect(letter.sections[0]!.text).toMatch(/John A\. Smith, President and Chief Investment Officer$/);
    expect(letter.sections[1]!.text).not.toContain('Treasury');
    expect(letter.signers).toEqual([
      { name: 'John A. Smith', title: 'President and Chief Investment Officer' },
      { name: 'Mary Major', title: 'Portfolio Manager' },
    ]);
  });

  it('reads the report inside a full EDGAR submission', () => {
    const html = report('<p>Message from the President</p><p>Dear Shareholder,</p><p>Volatility returned as the Federal Reserve raised rates four times.</p>');
    const submission = `<SEC-DOCUMENT>0000912345-22-000010.txt : 20220829
<SEC-HEADER>0000912345-22-000010.hdr.sgml : 20220829
ACCESSION NUMBER:		0000912345-22-000010
CONFORMED SUBMISSION TYPE:	N-CSRS
PUBLIC DOCUMENT COUNT:		2
FILED AS OF DATE:		20220829
FILER:
	COMPANY DATA:
		COMPANY CONFORMED NAME:			Example Growth Trust
		CENTRAL INDEX KEY:			0000912345
</SEC-HEADER>
<DOCUMENT>
<TYPE>N-CSRS
<SEQUENCE>1
<FILENAME>d1234dncsrs.htm
<TEXT>
${html}
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>`;
    const letter = parseShareholderLetter(submission);
    expect(letter.sections.map((s) => [s.key, s.title])).toEqual([['letter', 'Message from the President']]);
    expect(letter.sections[0]!.text).toContain('raised rates four times');
  });

  it('reads a tailored shareholder report: each fund\'s discussion, no letter, no signer', () => {
    const letter = parseShareholderLetter(
      tailoredReport(registrant, {
        periodEnd: 'December 31, 2024',
        periodLabel: 'December 31, 2024',
        funds: [
          { name: 'Example Growth Fund', ticker: 'EXGFX', discussion: ['The Fund returned 14.21% as large technology stocks led the market.'] },
          { name: 'Example Income Fund', ticker: 'EXIFX', discussion: ['Falling short-term rates lifted bond prices; the Fund returned 5.1%.'] },
        ],
      }),
    );
    expect(letter).toMatchObject({ shape: 'tailored_shareholder_report', periodEnd: '2024-12-31', fundNames: ['Example Growth Fund', 'Example Income Fund'], signers: [] });
    expect(letter.sections.every((s) => s.kind === 'performance_discussion')).toBe(true);
    expect(letter.sections.map((s) => s.text)).toEqual(['The Fund returned 14.21% as large technology stocks led the market.', 'Falling short-term rates lifted bond prices; the Fund returned 5.1%.']);
  });

  it('reads Item 1 from its body, not from the table of contents that lists it first', () => {
    const letter = parseShareholderLetter(`<html><body>
<table><tr><td>Item 1. Reports to Stockholders</td><td>3</td></tr><tr><td>Item 2. Code of Ethics</td><td>40</td></tr></table>
<p>Item 1. Reports to Stockholders.</p>
<p>Letter to Shareholders</p><p>Dear Shareholder,</p><p>Stocks rose for a third year while bond yields held near four percent.</p>
<p>Item 2. Code of Ethics.</p><p>Shareholder Letter</p><p>This heading is outside Item 1 and is not a letter of the report at all.</p>
</body></html>`);
    expect(letter.sections.map((s) => s.title)).toEqual(['Letter to Shareholders']);
  });

  it('finds nothing where Item 1 has neither letter nor discussion, and keeps no table of contents entry as one', () => {
    const letter = parseShareholderLetter(report('<table><tr><td>Letter to Shareholders</td><td>1</td></tr><tr><td>Schedule of Investments</td><td>2</td></tr></table><p>Schedule of Investments</p><p>Common stocks 98.2%</p>'));
    expect(letter.sections).toEqual([]);
    expect(letter.signers).toEqual([]);
  });
});
