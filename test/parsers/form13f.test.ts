import { describe, expect, it } from 'vitest';
import { parseForm13f, type Form13fHolding } from '../../ingest/parsers/ownership/form13f.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

const holding = (holdings: Form13fHolding[] | null, cusip: string) => holdings?.find((h) => h.cusip?.toUpperCase() === cusip);
const sum = (values: (number | null)[]) => values.reduce<number>((total, v) => total + (v ?? 0), 0);

describe('parseForm13f on a hand-written 13F-HR/A submission', () => {
  const load = async () => parseForm13f(await fixture('forms/13F-HR-A-full-submission.txt'), '13F-HR-A-full-submission.txt');

  it('reads the cover page, the amendment and the numbered other manager', async () => {
    const form = await load();
    expect(form).toMatchObject({ family: '13F', formType: '13F-HR/A', accessionNumber: '0009990013-24-000004', filedAt: '2024-05-10', periodOfReport: '2024-03-31' });
    expect(form.data).toMatchObject({ reportPeriod: '2024-03-31', reportType: '13F HOLDINGS REPORT', isAmendment: true, amendmentNumber: 1, amendmentType: 'RESTATEMENT' });
    expect(form.data.manager).toMatchObject({ cik: '0009990013', name: 'Lantern Hill Capital Management LLC', zipCode: '04101', crdNumber: '000999013' });
    expect(form.data.includedManagers).toEqual([{ sequenceNumber: 1, cik: '0009990014', name: 'Lantern Hill Advisers LP', form13FFileNumber: '028-99014', crdNumber: null, secFileNumber: null }]);
    expect(form.parties).toEqual([
      { cik: '0009990013', name: 'Lantern Hill Capital Management LLC', role: 'manager' },
      { cik: '0009990014', name: 'Lantern Hill Advisers LP', role: 'manager' },
    ]);
    expect(form.data.signature).toMatchObject({ name: 'Ruth Calder', date: '2024-05-09' });
  });

  it('keeps options and principal amounts apart and reports dollars as filed after the 2023 change', async () => {
    const { data } = await load();
    expect(data.valueUnit).toBe('dollars');
    expect(data.summary).toEqual({ otherIncludedManagersCount: 1, tableEntryTotal: 4, tableValueTotal: 4450250, tableValueTotalUsd: 4450250, isConfidentialOmitted: false });
    expect(data.holdings).toHaveLength(4);
    const call = data.holdings!.find((h) => h.putCall === 'Call')!;
    expect(call).toMatchObject({ cusip: '004567100', value: 45000, valueUsd: 45000, sharesOrPrincipalAmount: 3000, investmentDiscretion: 'DFND', otherManagers: '1', votingShared: 3000 });
    expect(holding(data.holdings, '08765QAB5')).toMatchObject({ sharesOrPrincipalType: 'PRN', sharesOrPrincipalAmount: 2000000, votingNone: 2000000 });
  });

  it('multiplies a thousands filing by exactly 1000', async () => {
    // The same table filed before 2023-01-03 is in thousands by rule (too few priced rows to argue).
    const early = (await fixture('forms/13F-HR-A-full-submission.txt')).replace('FILED AS OF DATE:\t\t20240510', 'FILED AS OF DATE:\t\t20220510');
    const { data } = parseForm13f(early, 'early.txt');
    expect(data.valueUnit).toBe('thousands');
    expect(data.summary?.tableValueTotalUsd).toBe(4450250000);
    expect(holding(data.holdings, '36467W109')).toMatchObject({ value: 875250, valueUsd: 875250000 });
  });

  it('accepts a notice report without an information table, but not a holdings report', async () => {
    const text = await fixture('forms/13F-HR-A-full-submission.txt');
    const primaryOnly = text.slice(0, text.indexOf('<DOCUMENT>\n<TYPE>INFORMATION TABLE')) + '</SEC-DOCUMENT>\n';
    expect(() => parseForm13f(primaryOnly, 'no-table.txt')).toThrow(/holdings report without an information table/);
    const notice = parseForm13f(primaryOnly.replaceAll('13F-HR/A', '13F-NT/A').replace('13F HOLDINGS REPORT', '13F NOTICE REPORT'), 'notice.txt');
    expect(notice).toMatchObject({ formType: '13F-NT/A', data: { reportType: '13F NOTICE REPORT', holdings: null } });
  });

  it('refuses a truncated submission instead of returning it without holdings', async () => {
    const text = await fixture('forms/13F-HR-A-full-submission.txt');
    const cut = text.slice(0, text.indexOf('GAMMA FOODS'));
    expect(() => parseForm13f(cut, 'cut.txt')).toThrow(/truncated submission/);
    const primaryOnly = text.slice(0, text.indexOf('</formData>'));
    expect(() => parseForm13f(primaryOnly, 'primary-cut.txt')).toThrow(/truncated|not well-formed/);
  });
});

describe.runIf(hasCorpus)('parseForm13f on the corpus', () => {
  const load = async (file: string) => parseForm13f(await corpusFile(`forms/13f/${file}`), file);

  it('MetLife, a 2021 report filed in 2023 in whole dollars: left unscaled', async () => {
    const form = await load('13F-HR_0001140361-23-013281_MetLife.txt');
    expect(form).toMatchObject({ formType: '13F-HR', accessionNumber: '0001140361-23-013281', filedAt: '2023-03-23', periodOfReport: '2021-12-31' });
    expect(form.data.reportType).toBe('13F COMBINATION REPORT');
    expect(form.data.otherReportingManagers.map((m) => m.cik)).toEqual(['0000931588', '0000728618', '0001529735']);
    expect(form.data.valueUnit).toBe('dollars');
    expect(form.data.summary).toMatchObject({ tableEntryTotal: 6, tableValueTotal: 11019796, tableValueTotalUsd: 11019796 });
    expect(holding(form.data.holdings, '78462F103')).toMatchObject({ issuerName: 'SPDR S&P ETF TRUST', value: 4245201, valueUsd: 4245201, sharesOrPrincipalAmount: 9866, investmentDiscretion: 'DFND', votingShared: 9866 });
    expect(sum(form.data.holdings!.map((h) => h.value))).toBe(11019796);
  });

  it('ACTIAM, a 2020 thousands filing of >$1000 pre-split mega-caps: scaled by the rule, not misread as dollars', async () => {
    const form = await load('13F-HR_0001619124-21-000002_ACTIAM.txt');
    expect(form.data.schemaVersion).toBeNull();
    expect(form.data.valueUnit).toBe('thousands');
    expect(form.data.valueUnitReason).toBe('filed 2021-02-12, before 2023-01-03: thousands by rule');
    expect(form.data.summary).toMatchObject({ tableEntryTotal: 5, tableValueTotal: 732158, tableValueTotalUsd: 732158000 });
    expect(holding(form.data.holdings, '037833100')).toMatchObject({ issuerName: 'APPLE INC', value: 230054, valueUsd: 230054000, sharesOrPrincipalAmount: 1733777, votingSole: 1733777 });
    expect(holding(form.data.holdings, '023135106')).toMatchObject({ value: 152059, valueUsd: 152059000, sharesOrPrincipalAmount: 46688 });
  });

  it('Bull Street, a 2022-12-31 report filed in 2023 still in thousands: the prices override the rule', async () => {
    const form = await load('13F-HR_0001790837-23-000002_Bull-Street-Advisors.txt');
    expect(form).toMatchObject({ filedAt: '2023-02-28', periodOfReport: '2022-12-31', parties: [{ cik: '0001790837', name: 'Bull Street Advisors, LLC', role: 'manager' }] });
    expect(form.data.valueUnit).toBe('thousands');
    expect(form.data.valueUnitReason).toContain('90 of 90 share rows would be priced under $1');
    expect(form.data.summary).toMatchObject({ tableEntryTotal: 90, tableValueTotal: 192767, tableValueTotalUsd: 192767000 });
    expect(form.data.holdings).toHaveLength(90);
    expect(holding(form.data.holdings, '478160104')).toMatchObject({ issuerName: 'Johnson & Johnson', value: 8484, valueUsd: 8484000, sharesOrPrincipalAmount: 48027 });
    expect(sum(form.data.holdings!.map((h) => h.valueUsd))).toBe(192767000);
  });

  it('Acorn Creek, a .nc dissemination submission from 2025 in dollars', async () => {
    const form = await load('13F-HR_0001951757-25-000093.nc');
    expect(form).toMatchObject({ accessionNumber: '0001951757-25-000093', filedAt: '2025-01-22', periodOfReport: '2024-12-31' });
    expect(form.data.manager).toMatchObject({ cik: '0001994827', name: 'ACORN CREEK CAPITAL LLC', street2: '10TH FLOOR, STE 1000' });
    expect(form.data.valueUnit).toBe('dollars');
    expect(form.data.summary).toMatchObject({ tableEntryTotal: 77, tableValueTotal: 194611845 });
    expect(form.data.holdings).toHaveLength(77);
    expect(sum(form.data.holdings!.map((h) => h.value))).toBe(194611845);
    expect(holding(form.data.holdings, '67066G104')).toMatchObject({ issuerName: 'NVIDIA CORPORATION', value: 2304442, valueUsd: 2304442, sharesOrPrincipalAmount: 17160, votingNone: 17160 });
  });

  it('a standalone MetLife primary_doc.xml: cover and summary, no holdings, dollars by its signature date', async () => {
    const form = await load('13F-HR_primarydoc_MetLife.xml');
    expect(form).toMatchObject({ accessionNumber: null, filedAt: null, periodOfReport: '2021-12-31' });
    expect(form.data.holdings).toBeNull();
    expect(form.data.manager.cik).toBe('0001099219');
    expect(form.data.signature.date).toBe('2023-03-22');
    expect(form.data.summary).toMatchObject({ tableEntryTotal: 6, tableValueTotalUsd: 11019796 });
    expect(form.data.valueUnit).toBe('dollars');
  });
});
