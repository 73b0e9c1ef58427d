import { describe, expect, it } from 'vitest';
import { parseForm144 } from '../../ingest/parsers/ownership/form144.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('Form 144 fixture', () => {
  it('reads the sale, the acquisition and an empty three-month history', async () => {
    const form = parseForm144(await fixture('forms/form144-amendment.xml'), 'form144-amendment.xml');
    expect(form).toMatchObject({ family: '144', formType: '144/A', accessionNumber: null, filedAt: '2024-06-01', isSample: false });
    expect(form.data.previousAccessionNumber).toBe('0009990002-24-000007');
    expect(form.data.securitiesToBeSold).toEqual([
      { securitiesClass: 'Class A Common', brokerName: 'Lakeshore Brokerage LLC', brokerAddress: null, numberOfUnits: 1250, aggregateMarketValue: 40312.5, unitsOutstanding: 88000000, approximateSaleDate: '2024-06-03', exchange: 'NYSE' },
    ]);
    expect(form.data.securitiesAcquired[0]).toMatchObject({ acquiredDate: '2021-02-15', natureOfAcquisition: 'Exercise of stock options', isGift: false, amountAcquired: 1250 });
    expect(form.data.nothingToReportForPast3Months).toBe(true);
    expect(form.data.salesInPast3Months).toEqual([]);
    expect(form.data.planAdoptionDates).toEqual([]);
    expect(form.parties).toEqual([
      { cik: '0009990003', name: 'Copperline Tools Corp', role: 'issuer' },
      { cik: '0009990002', name: 'Rivera Marisol', role: 'reporting_owner' },
    ]);
  });

  it('throws on truncated XML', async () => {
    const text = await fixture('forms/form144-amendment.xml');
    expect(() => parseForm144(text.slice(0, Math.floor(text.length * 0.6)), 'cut.xml')).toThrow(/malformed or truncated XML/);
  });
});

describe.runIf(hasCorpus)('Form 144 corpus', () => {
  it("Apple / Luca Maestri: the proposed sale's units and market value", async () => {
    const name = '144_issuer-CIK0000320193_AAPL_Luca-Maestri.xml';
    const form = parseForm144(await corpusFile(`forms/form144/${name}`), name);
    expect(form).toMatchObject({ formType: '144', isSample: false, filedAt: '2023-04-13' });
    expect(form.data.issuer).toMatchObject({ cik: '0000320193', name: 'Apple Inc.', secFileNumber: '001-36743' });
    expect(form.data.personForWhoseAccount).toBe('Luca Maestri');
    expect(form.data.relationshipsToIssuer).toEqual(['Director']);
    expect(form.data.securitiesToBeSold).toHaveLength(1);
    expect(form.data.securitiesToBeSold[0]).toMatchObject({
      securitiesClass: 'Common',
      brokerName: 'Goldman Sachs & Co. LLC',
      numberOfUnits: 69996,
      aggregateMarketValue: 11588537.76,
      unitsOutstanding: 15821946000,
      approximateSaleDate: '2023-04-13',
      exchange: 'NASD',
    });
    expect(form.data.securitiesAcquired[0]).toMatchObject({ acquiredDate: '2023-03-31', amountAcquired: 69996, natureOfPayment: 'Compensation' });
    expect(form.data.salesInPast3Months).toEqual([{ sellerName: 'Luca Maestri', sellerAddress: expect.objectContaining({ city: 'Cupertino' }), securitiesClass: 'Common', saleDate: '2023-04-06', amountSold: 200, grossProceeds: 32932 }]);
    expect(form.data.noticeDate).toBe('2023-04-13');
    expect(form.data.planAdoptionDates).toEqual(['2022-11-15']);
    expect(form.parties).toContainEqual({ cik: '0001513362', name: 'Luca Maestri', role: 'reporting_owner' });
  });

  it('the two SEC samples are marked as samples, the 144/A with its previous accession', async () => {
    const original = parseForm144(await corpusFile('forms/form144/SEC-sample_144.xml'), 'SEC-sample_144.xml');
    const amended = parseForm144(await corpusFile('forms/form144/SEC-sample_144-A.xml'), 'SEC-sample_144-A.xml');
    expect(original).toMatchObject({ formType: '144', isSample: true });
    expect(amended).toMatchObject({ formType: '144/A', isSample: true });
    expect(amended.data.previousAccessionNumber).toBe('0001314805-22-201762');
    expect(original.data.securitiesToBeSold.map((s) => [s.numberOfUnits, s.aggregateMarketValue, s.exchange])).toEqual([
      [17087, 1282000, 'CHX'],
      [18000, 126500000, 'NYSE'],
    ]);
    expect(original.data.securitiesAcquired[0]).toMatchObject({ isGift: true, donorAcquiredDate: '2022-08-14' });
    expect(original.data.planAdoptionDates).toEqual(['2022-08-15', '2022-08-15', '1933-01-02']);
    expect(original.data.relationshipsToIssuer).toEqual(['Officer', 'Director', 'Stakeholder']);
  });
});
