import { describe, expect, it } from 'vitest';
import { parseNcen } from '../../ingest/parsers/funds/ncen.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('parseNcen on a hand-written two-series submission', () => {
  const load = async () => parseNcen(await fixture('forms/ncen-index-etf-submission.txt'), 'ncen-index-etf-submission.txt');

  it('reads the registrant, its auditor and underwriter, and names them as parties', async () => {
    const form = await load();
    expect(form).toMatchObject({ family: 'NCEN', formType: 'N-CEN', accessionNumber: '0009990031-25-000002', filedAt: '2025-03-12', periodOfReport: '2024-12-31' });
    expect(form.data.registrant).toMatchObject({ name: 'Harborview Index Trust', cik: '0009990031', fileNumber: '811-99031', lei: '999900HARBORVIEW0031', totalSeries: 2, familyName: 'HARBORVIEW' });
    expect(form.data.publicAccountants).toEqual([{ name: 'Fenwick & Hale LLP', fileNumber: null, crdNumber: null, lei: null, state: 'US-PA', country: 'US', isAffiliated: null, pcaobNumber: '9931' }]);
    expect(form.data.principalUnderwriters[0]).toMatchObject({ name: 'Quayside Distributors, LLC', fileNumber: '8-99032', lei: null, state: 'US-MD', isAffiliated: false });
    expect(form.parties).toEqual([
      { cik: '0009990031', name: 'Harborview Index Trust', role: 'filer' },
      { cik: null, name: 'Harborview Total Bond Index ETF', role: 'fund' },
      { cik: null, name: 'Harborview Global Equity Fund', role: 'fund' },
      { cik: null, name: 'Harborview Asset Management, Inc.', role: 'adviser' },
      { cik: null, name: 'Lindqvist Kapitalförvaltning AB', role: 'adviser' },
      { cik: null, name: 'Fenwick & Hale LLP', role: 'auditor' },
      { cik: null, name: 'Quayside Distributors, LLC', role: 'underwriter' },
    ]);
  });

  it('tells the index ETF with its authorized participants from the mutual fund with a sub-adviser', async () => {
    const [etf, fund] = (await load()).data.series;
    expect(etf).toMatchObject({ name: 'Harborview Total Bond Index ETF', seriesId: 'S000999031', fundTypes: ['Exchange-Traded Fund', 'Index Fund'], isEtf: true, isIndexFund: true, monthlyAverageNetAssets: 412500000.25, subAdvisers: [] });
    expect(etf!.etf).toEqual({
      exchanges: [{ exchange: 'ARCX', ticker: 'HVTB' }],
      creationUnitShares: 25000,
      isInKind: false,
      authorizedParticipants: [
        { name: 'Pier Street Securities LLC', fileNumber: '8-99037', crdNumber: '000999037', lei: '999900PIERSTREET0037', purchaseValue: 15250000, redeemValue: 4100000.5 },
        { name: 'Tidewater Markets & Co.', fileNumber: '8-99038', crdNumber: null, lei: '999900TIDEWATER00038', purchaseValue: 0, redeemValue: 0 },
      ],
    });
    expect(fund).toMatchObject({ fundTypes: [], isEtf: false, isIndexFund: false, etf: null });
    expect(fund!.classes.map((c) => c.ticker)).toEqual(['HVGEX', 'HVGIX']);
    expect(fund!.subAdvisers).toEqual([{ name: 'Lindqvist Kapitalförvaltning AB', fileNumber: '801-99035', crdNumber: '000999035', lei: '999900LINDQVIST00035', state: null, country: 'SE', isAffiliated: false }]);
    expect(fund!.custodians.map((c) => [c.name, c.country, c.isSubCustodian])).toEqual([
      ['Example Trust Company', 'US', false],
      ['Nordic Custody Bank ASA', 'NO', true],
    ]);
  });

  it('refuses a truncated submission', async () => {
    const text = await fixture('forms/ncen-index-etf-submission.txt');
    expect(() => parseNcen(text.slice(0, text.indexOf('<exchangeSeriesInfo>')), 'cut.txt')).toThrow(/truncated submission/);
    const xmlOnly = text.slice(text.indexOf('<?xml'), text.indexOf('</XML>'));
    expect(() => parseNcen(xmlOnly.slice(0, xmlOnly.indexOf('<exchangeSeriesInfo>')), 'cut.xml')).toThrow(/not well-formed XML/);
  });
});

describe.runIf(hasCorpus)('parseNcen on the corpus', () => {
  const load = async (file: string) => parseNcen(await corpusFile(`forms/ncen/${file}`), file);

  it('AB Active ETFs: 22 ETF series, Ernst & Young, Foreside, authorized participants per ETF', async () => {
    const form = await load('N-CEN_0001410368-26-010918_AB-Active-ETFs.txt');
    expect(form).toMatchObject({ formType: 'N-CEN', accessionNumber: '0001410368-26-010918', filedAt: '2026-02-12', periodOfReport: '2025-11-30' });
    expect(form.data.registrant).toMatchObject({ name: 'AB Active ETFs, Inc.', cik: '0001496608', fileNumber: '811-23799', lei: '2549006ZG5WBMZRI5P66', totalSeries: 23 });
    expect(form.data.publicAccountants).toMatchObject([{ name: 'Ernst & Young LLP', pcaobNumber: '42', lei: '254900Y3CIB1KF938C31' }]);
    expect(form.data.principalUnderwriters).toMatchObject([{ name: 'Foreside Fund Services, LLC', fileNumber: '8-51293' }]);
    expect(form.data.directors).toHaveLength(8);
    expect(form.data.series).toHaveLength(22);
    expect(form.data.series.every((s) => s.isEtf && s.etf !== null && !s.isIndexFund)).toBe(true);

    const california = form.data.series.find((s) => s.seriesId === 'S000093944')!;
    expect(california).toMatchObject({ name: 'AB California Intermediate Municipal ETF', lei: '2549006ME7I5OODNLG27', monthlyAverageNetAssets: 1099771191.55 });
    expect(california.investmentAdvisers).toMatchObject([{ name: 'AllianceBernstein L.P.', fileNumber: '801-56720', crdNumber: '000108477' }]);
    expect(california.etf).toMatchObject({ exchanges: [{ exchange: 'ARCX', ticker: 'CAM' }], creationUnitShares: 50000 });
    expect(california.etf!.authorizedParticipants).toHaveLength(22);
    expect(california.etf!.authorizedParticipants.find((ap) => ap.name === 'Jane Street Capital, LLC')).toEqual({
      name: 'Jane Street Capital, LLC', fileNumber: '8-52275', crdNumber: '000103782', lei: '549300ZM16HMPEPNV857', purchaseValue: 6286255, redeemValue: 8804155,
    });
    expect(form.data.series.find((s) => s.name === 'AB Disruptors ETF')!.custodians).toHaveLength(41);
  });

  it('AB Cap Fund: three mutual-fund series with their transfer agent and auditor', async () => {
    const form = await load('N-CEN_0001410368-26-010921_AB-Cap-Fund.txt');
    expect(form).toMatchObject({ accessionNumber: '0001410368-26-010921', periodOfReport: '2025-11-30' });
    expect(form.data.registrant).toMatchObject({ name: 'AB CAP FUND, INC.', cik: '0000081443', fileNumber: '811-01716' });
    expect(form.data.series.map((s) => s.name)).toEqual(['AB All China Equity Portfolio', 'AB Mid Cap Value Portfolio', 'AB Small Cap Value Portfolio']);
    expect(form.data.series.every((s) => !s.isEtf && s.etf === null && s.fundTypes.length === 0)).toBe(true);
    expect(form.data.series[0]!.classes.map((c) => c.ticker)).toEqual(['ACEYX', 'ACEAX']);
    expect(form.data.series[0]!.transferAgents).toMatchObject([{ name: 'AllianceBernstein Investor Services, Inc.', fileNumber: '084-01187', isAffiliated: true }]);
    expect(form.data.publicAccountants.map((a) => a.name)).toEqual(['Ernst & Young LLP']);
    expect(form.data.principalUnderwriters).toMatchObject([{ name: 'AllianceBernstein Investments, Inc.', fileNumber: '8-30851', isAffiliated: true }]);
    expect(form.parties.filter((p) => p.role === 'auditor' || p.role === 'underwriter').map((p) => p.name)).toEqual(['Ernst & Young LLP', 'AllianceBernstein Investments, Inc.']);
  });
});
