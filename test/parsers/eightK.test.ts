import { describe, expect, it } from 'vitest';
import { parseEightK, type EightKEvent, type EightKReport } from '../../ingest/parsers/eightK/eightK.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

function eventFor<T extends EightKEvent['type']>(report: EightKReport, type: T): Extract<EightKEvent, { type: T }> {
  const event = report.events.find((e) => e.type === type);
  if (!event) throw new Error(`no ${type} event in ${JSON.stringify(report.items)}`);
  return event as Extract<EightKEvent, { type: T }>;
}

async function corpusReport(file: string): Promise<EightKReport> {
  return parseEightK({ text: await corpusFile(`filings/8k/${file}`), name: file });
}

describe('8-K fixtures', () => {
  it('reads an auditor change: the dismissed firm, the engaged firm, and the cover facts', async () => {
    const report = parseEightK({ text: await fixture('eightk/auditor-change-4.01.htm'), name: 'auditor-change-4.01.htm' });
    expect(report).toMatchObject({
      accessionNumber: null,
      formType: '8-K',
      periodOfReport: '2025-03-03',
      company: { cik: '0001999901', name: 'Harborview Instruments, Inc.' },
      items: ['4.01', '9.01'],
    });
    const change = eventFor(report, 'auditor_change');
    expect(change).toMatchObject({ item: '4.01', formerAuditor: 'Marcum LLP', newAuditor: 'Grant Thornton LLP', change: 'dismissed', confidence: 'high' });
    expect(change.excerpt).toMatch(/^\(a\) Dismissal of Independent Registered Public Accounting Firm/);
    expect(change.excerpt.length).toBeLessThanOrEqual(1502);
    expect(report.events.find((e) => e.item === '9.01')).toMatchObject({ type: 'other', excerpt: expect.stringContaining('Letter of Marcum LLP') });
  });

  it('takes accession, dates, company and items from a submission header, and reads both items inside', async () => {
    const report = parseEightK({ text: await fixture('eightk/special-meeting-5.02-5.07.txt'), name: 'special-meeting.txt' });
    expect(report).toMatchObject({
      accessionNumber: '0001999902-25-000031',
      formType: '8-K',
      filedAt: '2025-06-12',
      periodOfReport: '2025-06-10',
      company: { cik: '0001999902', name: 'Lakeshore Therapeutics Corp' },
      items: ['5.02', '5.07'],
    });
    const officers = eventFor(report, 'officer_change');
    expect(officers.changes).toEqual([
      { person: 'Michael T. Hargrove', position: 'Chief Financial Officer of the Company', change: 'departure', effectiveDate: '2025-06-30' },
      { person: 'Priya N. Raman', position: 'Chief Financial Officer', change: 'appointment', effectiveDate: '2025-07-01' },
      // "Ms. Raman will receive an annual base salary ..." resolves to her full name and new role
      { person: 'Priya N. Raman', position: 'Chief Financial Officer', change: 'compensation', effectiveDate: null },
    ]);
    expect(officers.confidence).toBe('high');
  });

  it('reads a special meeting: a table with a two-line header, prose counts, a failed proposal', async () => {
    const report = parseEightK({ text: await fixture('eightk/special-meeting-5.02-5.07.txt'), name: 'special-meeting.txt' });
    const votes = eventFor(report, 'voting_results');
    expect(votes).toMatchObject({ meetingDate: '2025-06-10', meetingType: 'special', parsingConfidence: 'high' });
    expect(votes.proposals).toHaveLength(2);
    expect(votes.proposals[0]).toMatchObject({
      number: 1,
      proposalType: 'charter_amendment',
      for: 9811402,
      against: 1204377,
      abstain: 52118,
      // printed as a dash: no count, not zero
      brokerNonVotes: null,
      outcome: 'approved',
    });
    expect(votes.proposals[1]).toMatchObject({
      number: 2,
      proposalType: 'equity_plan',
      for: 4102330,
      against: 5260118,
      abstain: 88012,
      brokerNonVotes: 1617437,
      outcome: 'not_approved',
    });
  });

  it('refuses a document that is not a current report', () => {
    const notice = '<html><body><p>FORM 10-Q</p><p>QUARTERLY REPORT</p><p>Part I. Financial Information</p></body></html>';
    expect(() => parseEightK({ text: notice, name: 'q.htm' })).toThrow(/q\.htm: not a Form 8-K/);
  });
});

describe.runIf(hasCorpus)('8-K corpus', () => {
  it('JPM 5.02: co-presidents elected, a retirement, retention awards', async () => {
    const report = await corpusReport('8-K_0000019617-26-000241_JPM_item5.02.htm');
    expect(report).toMatchObject({ formType: '8-K', periodOfReport: '2026-06-24', company: { cik: '0000019617', name: 'JPMorgan Chase & Co' }, items: ['5.02', '9.01'] });
    const { changes } = eventFor(report, 'officer_change');
    expect(changes).toContainEqual({ person: 'Doug Petno', position: 'Co-Presidents of the Firm', change: 'election', effectiveDate: '2026-06-25' });
    expect(changes).toContainEqual({ person: 'Troy Rohrbaugh', position: 'Co-Presidents of the Firm', change: 'election', effectiveDate: '2026-06-25' });
    // "Mr. Rohrbaugh will become CEO of ..." resolves to the full name
    expect(changes).toContainEqual({ person: 'Troy Rohrbaugh', position: 'CEO of Consumer & Community Banking', change: 'appointment', effectiveDate: null });
    expect(changes).toContainEqual({ person: 'Marianne Lake', position: 'CEO of CCB', change: 'departure', effectiveDate: null });
    expect(changes.filter((c) => c.change === 'compensation').map((c) => c.person)).toEqual(['Doug Petno', 'Troy Rohrbaugh', 'Mary Erdoes', 'Jennifer Piepszak']);
    expect(changes).toContainEqual({ person: 'Jennifer Piepszak', position: 'Chief Operating Officer', change: 'compensation', effectiveDate: null });
  });

  it('JWN 5.02(e): one compensation change per executive in the pay table', async () => {
    const report = await corpusReport('8-K_0000072333-23-000015_JWN_item5.02.htm');
    expect(report).toMatchObject({ periodOfReport: '2023-03-01', company: { cik: '0000072333', name: 'Nordstrom, Inc.' }, items: ['5.02', '9.01'] });
    expect(eventFor(report, 'officer_change').changes).toEqual([
      { person: 'Erik B. Nordstrom', position: 'Chief Executive Officer (Principal Executive Officer)', change: 'compensation', effectiveDate: null },
      { person: 'Peter E. Nordstrom', position: 'President, Nordstrom Inc. and Chief Brand Officer', change: 'compensation', effectiveDate: null },
      { person: 'Kenneth J. Worzel', position: 'Chief Customer Officer', change: 'compensation', effectiveDate: null },
    ]);
  });

  it('ADBE 2.02: an earnings release, with its own text as the excerpt', async () => {
    const report = await corpusReport('8-K_0000796343-23-000044_ADBE_item2.02.htm');
    expect(report).toMatchObject({ periodOfReport: '2023-03-15', company: { cik: '0000796343', name: 'ADOBE INC.' }, items: ['2.02', '9.01'] });
    const results = eventFor(report, 'results_of_operations');
    expect(results.excerpt).toMatch(/^On March 15, 2023, Adobe Inc\. \(“Adobe”\) issued a press release announcing financial results for its first quarter fiscal year 2023 ended March 3, 2023\./);
    expect(results.excerpt.length).toBeLessThanOrEqual(1502);
    expect(results.excerpt).not.toMatch(/Item 9\.01|SIGNATURES/);
  });

  it('EXC 2005 full submission: header facts and an election under the old 5.02 title', async () => {
    const report = await corpusReport('8-K_0000950137-05-004969_EXC_2005.txt');
    expect(report).toMatchObject({
      accessionNumber: '0000950137-05-004969',
      filedAt: '2005-04-27',
      periodOfReport: '2005-04-26',
      company: { cik: '0001109357', name: 'EXELON CORP' },
      items: ['5.02'],
    });
    const officers = eventFor(report, 'officer_change');
    expect(officers.changes).toEqual([{ person: 'Thomas J. Ridge', position: 'Class I director', change: 'election', effectiveDate: '2005-05-02' }]);
    expect(officers.confidence).toBe('high');
  });

  it('NVDA full submission: items from the header, the named executive officers of the bonus plan', async () => {
    const report = await corpusReport('8-K_0001045810-26-000024_NVDA_item5.02.txt');
    expect(report).toMatchObject({ accessionNumber: '0001045810-26-000024', filedAt: '2026-03-06', periodOfReport: '2026-03-02', company: { cik: '0001045810', name: 'NVIDIA CORP' }, items: ['5.02', '9.01'] });
    const { changes } = eventFor(report, 'officer_change');
    expect(changes.map((c) => c.person)).toEqual(['Jen-Hsun Huang', 'Colette M. Kress', 'Ajay K. Puri', 'Debora Shoquist', 'Timothy S. Teter']);
    expect(changes.every((c) => c.change === 'compensation')).toBe(true);
    expect(changes[1]).toMatchObject({ person: 'Colette M. Kress', position: 'Executive Vice President and Chief Financial Officer' });
  });

  it('BLK 5.02: the CFO hands over to Martin Small', async () => {
    const report = await corpusReport('8-K_0001193125-23-048785_BLK_item5.02.htm');
    expect(report).toMatchObject({ periodOfReport: '2023-02-24', company: { cik: '0001364742', name: 'BlackRock Inc.' }, items: ['5.02'] });
    expect(eventFor(report, 'officer_change').changes).toEqual([
      { person: 'Gary S. Shedlin', position: 'Chief Financial Officer', change: 'departure', effectiveDate: null },
      { person: 'Gary S. Shedlin', position: 'Vice Chairman', change: 'appointment', effectiveDate: null },
      { person: 'Martin Small', position: 'Chief Financial Officer of the Company', change: 'appointment', effectiveDate: null },
    ]);
  });

  it('ABVC full submission: four items, and the restated fiscal year (not the 10-K year named later)', async () => {
    const report = await corpusReport('8-K_0001213900-25-032135_ABVC_item4.02.txt');
    expect(report).toMatchObject({ accessionNumber: '0001213900-25-032135', filedAt: '2025-04-15', company: { cik: '0001173313', name: 'ABVC BIOPHARMA, INC.' }, items: ['2.02', '4.02', '7.01', '9.01'] });
    expect(report.events.map((e) => `${e.item}:${e.type}`)).toEqual(['2.02:results_of_operations', '4.02:restatement', '7.01:other', '9.01:other']);
    const restatement = eventFor(report, 'restatement');
    expect(restatement).toMatchObject({ affectedPeriods: ['fiscal year ended December 31, 2023'], periodEnds: ['2023-12-31'], confidence: 'high' });
    expect(restatement.excerpt).toMatch(/^On April 10, 2025, the Board of Directors .* should no longer be relied upon due to errors in those financial statements\./);
    expect(restatement.excerpt.length).toBeLessThanOrEqual(1502);
  });

  it('a full submission\'s EX-99 press release is titled by its first heading; a primary document alone holds none', async () => {
    const abvc = await corpusReport('8-K_0001213900-25-032135_ABVC_item4.02.txt');
    // the description says only "PRESS RELEASE"; the heading under the "Exhibit 99.1" label names it
    expect(abvc.pressReleases).toEqual([{ type: 'EX-99.1', sequence: 2, fileName: 'ea023837201ex99-1_abvcbio.htm', description: 'PRESS RELEASE', title: 'ABVC BioPharma Announces 2024 Financial Results' }]);
    expect((await corpusReport('8-K_0001045810-26-000024_NVDA_item5.02.txt')).pressReleases).toEqual([]); // an EX-10.1 only
    expect((await corpusReport('8-K_0000796343-23-000044_ADBE_item2.02.htm')).pressReleases).toBeNull();
  });

  it('META 5.02: a director resigns with immediate effect', async () => {
    const report = await corpusReport('8-K_0001628280-25-058337_META_item5.02.htm');
    expect(report).toMatchObject({ periodOfReport: '2025-12-19', company: { cik: '0001326801', name: 'Meta Platforms, Inc.' }, items: ['5.02'] });
    expect(eventFor(report, 'officer_change').changes).toEqual([
      { person: 'Dina Powell McCormick', position: 'member of the Board of Directors of the Company', change: 'departure', effectiveDate: '2025-12-19' },
    ]);
  });

  it('FLWS 5.07: eleven nominees, four proposals with counts and outcomes', async () => {
    const report = await corpusReport('8-K_CIK0001084869_FLWS_2023-12-14_item5.07.htm');
    // the cover's dei date is empty; the date printed under the form title is used
    expect(report).toMatchObject({ periodOfReport: '2023-12-14', company: { cik: '0001084869' }, items: ['5.07'] });
    const votes = eventFor(report, 'voting_results');
    expect(votes).toMatchObject({ meetingDate: '2023-12-14', meetingType: 'annual', parsingConfidence: 'high' });
    const nominees = votes.proposals.filter((p) => p.number === 1);
    expect(nominees).toHaveLength(11);
    expect(nominees.every((p) => p.proposalType === 'director_election' && p.outcome === 'elected')).toBe(true);
    expect(nominees.find((p) => p.nominee === 'Leonard J. Elmore')).toMatchObject({ for: 277367302, withheld: 11873413, brokerNonVotes: 3936780, against: null, abstain: null });
    const byNumber = (n: number) => votes.proposals.find((p) => p.number === n)!;
    // a dash under Broker Non-Votes is no count
    expect(byNumber(2)).toMatchObject({ proposalType: 'auditor_ratification', for: 292485982, against: 659149, abstain: 32364, brokerNonVotes: null, outcome: 'approved' });
    expect(byNumber(3)).toMatchObject({ proposalType: 'say_on_pay', for: 285361185, against: 3360097, abstain: 519433, brokerNonVotes: 3936780, outcome: 'approved' });
    expect(byNumber(4)).toMatchObject({
      proposalType: 'say_on_frequency',
      frequency: { oneYear: 13768995, twoYears: 38167, threeYears: 275268419, selected: 3 },
      abstain: 165134,
      outcome: 'three_years', // the frequency the stockholders chose
    });
    expect(byNumber(5)).toMatchObject({ proposalType: 'equity_plan', for: 286524932, against: 2684422, abstain: 31361, brokerNonVotes: 3936780, outcome: 'approved' });
  });
});
