import { describe, expect, it } from 'vitest';
import { parseNport } from '../../ingest/parsers/funds/nport.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('parseNport on a hand-written NPORT-P/A', () => {
  const load = async () => parseNport(await fixture('forms/nport-foreign-and-derivative.xml'), 'nport-foreign-and-derivative.xml');

  it('reads the registrant, the series, the report dates and the fund totals', async () => {
    const form = await load();
    expect(form).toMatchObject({ family: 'NPORT', formType: 'NPORT-P/A', accessionNumber: null, periodOfReport: '2025-03-31' });
    expect(form.data).toMatchObject({ reportPeriodEnd: '2025-06-30', reportDate: '2025-03-31', isFinalFiling: false, totalAssets: 101250000.5, totalLiabilities: 1250000.25, netAssets: 100000000.25 });
    expect(form.data.series).toEqual({ name: 'Harborview Global Equity Fund', seriesId: 'S000999032', lei: '999900HVGLOBALEQ0032' });
    expect(form.data.classIds).toEqual(['C000999032', 'C000999033']);
    expect(form.parties).toEqual([
      { cik: '0009990031', name: 'Harborview Index Trust', role: 'filer' },
      { cik: null, name: 'Harborview Global Equity Fund', role: 'fund' },
    ]);
  });

  it('keeps foreign-currency amounts, OTHER categories and a future as filed', async () => {
    const [shipping, bond, future] = (await load()).data.holdings;
    expect(shipping).toMatchObject({ cusip: null, isin: 'NO0099990041', balance: 120000, units: 'NS', currency: 'NOK', exchangeRate: 10.5234, valueUsd: 2850000.12, country: 'NO', fairValueLevel: '1', debt: null });
    expect(bond).toMatchObject({ lei: null, cusip: null, isin: 'XS0099990042', currency: 'EUR', issuerCategory: 'OTHER', issuerCategoryOther: 'Supranational-backed sovereign' });
    expect(bond!.debt).toEqual({ maturityDate: '2031-02-15', couponKind: 'Fixed', annualizedRate: 3.125, isDefault: false, areInterestPaymentsInArrears: false, isPaidInKind: false });
    expect(future).toMatchObject({ title: 'E-mini S&P 500 Jun25', ticker: 'ESM5', units: 'NC', currency: 'USD', valueUsd: -48250, percentOfNetAssets: -0.04825, assetCategory: 'OTHER', assetCategoryOther: 'Equity index future', derivativeCategory: 'future' });
  });

  it('refuses truncated XML', async () => {
    const text = await fixture('forms/nport-foreign-and-derivative.xml');
    expect(() => parseNport(text.slice(0, text.indexOf('<signature>')), 'cut.xml')).toThrow(/not well-formed XML/);
  });
});

describe.runIf(hasCorpus)('parseNport on the corpus', () => {
  const load = async (file: string) => parseNport(await corpusFile(`forms/nport/${file}`), file);

  it('Dupree Kentucky Tax-Free Short-to-Medium Series: net assets and 55 municipal bonds', async () => {
    const form = await load('NPORT-P_Dupree.xml');
    expect(form).toMatchObject({ formType: 'NPORT-P', periodOfReport: '2022-12-31' });
    expect(form.data.registrant).toMatchObject({ name: 'Dupree Mutual Funds', cik: '0000311101', fileNumber: '811-02918', state: 'US-KY' });
    expect(form.data.series).toEqual({ name: 'Kentucky Tax-Free Short-to-Medium Series', seriesId: 'S000012000', lei: '5493006TF05454RBY690' });
    expect(form.data).toMatchObject({ reportPeriodEnd: '2023-06-30', reportDate: '2022-12-31', totalAssets: 41468995.88, totalLiabilities: 119069.87, netAssets: 41349926.01 });
    expect(form.data.holdings).toHaveLength(55);
    expect(form.data.holdings[0]).toMatchObject({
      name: 'KENTUCKY ST PPTY & BLDGS COMMN',
      lei: null,
      title: 'KY KYSFAC 5 08/01/2028',
      cusip: '49151FGH7',
      isin: 'US49151FGH73',
      balance: 755000,
      units: 'PA',
      currency: 'USD',
      valueUsd: 794207.15,
      percentOfNetAssets: 1.9206978745,
      assetCategory: 'DBT',
      issuerCategory: 'MUN',
      country: 'US',
      fairValueLevel: '2',
      debt: { maturityDate: '2028-08-01', couponKind: 'Fixed', annualizedRate: 5, isDefault: false, areInterestPaymentsInArrears: false, isPaidInKind: false },
    });
    expect(form.data.holdings.at(-1)).toMatchObject({ name: 'UNIVERSITY LOUISVILLE KY', cusip: '914391V61', valueUsd: 775962.2, debt: { maturityDate: '2030-09-01', annualizedRate: 4 } });
    expect(form.data.signature).toEqual({ name: 'Michelle Dragoo', title: 'Treasurer', date: '2023-01-31' });
  });

  it('AST Bond Portfolio 2022, a final filing with no holdings left', async () => {
    const form = await load('NPORT-P_AdvancedSeries.xml');
    expect(form.data.registrant).toMatchObject({ name: 'Advanced Series Trust', cik: '0000814679', lei: '549300VWSUPW8FKG9V43' });
    expect(form.data.series).toMatchObject({ name: 'AST Bond Portfolio 2022', seriesId: 'S000030880' });
    expect(form.data).toMatchObject({ reportPeriodEnd: '2022-12-31', reportDate: '2022-12-30', isFinalFiling: true, totalAssets: 1441198.96, totalLiabilities: 52118.22, netAssets: 1389080.74 });
    expect(form.data.holdings).toEqual([]);
  });
});
