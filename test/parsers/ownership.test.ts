import { describe, expect, it } from 'vitest';
import { parseOwnership } from '../../ingest/parsers/ownership/insiderForms.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('parseOwnership on a hand-written joint Form 4/A', () => {
  const load = async () => parseOwnership(await fixture('forms/form4-amendment-joint.xml'), 'form4-amendment-joint.xml');

  it('names the issuer and both reporting owners with their relationships', async () => {
    const form = await load();
    expect(form).toMatchObject({ family: 'OWNERSHIP', formType: '4/A', accessionNumber: null, periodOfReport: '2024-11-18' });
    expect(form.data.dateOfOriginalSubmission).toBe('2024-11-20');
    expect(form.parties).toEqual([
      { cik: '0009990021', name: 'Northwind Biologics, Inc.', role: 'issuer' },
      { cik: '0009990022', name: 'Saltmarsh Ventures Fund III, L.P.', role: 'reporting_owner' },
      { cik: '0009990023', name: 'Okafor Miriam', role: 'reporting_owner' },
    ]);
    // unchecked boxes are simply absent in newer schemas
    expect(form.data.reportingOwners[0]).toMatchObject({ isTenPercentOwner: true, isDirector: false, isOfficer: false, officerTitle: null });
    expect(form.data.reportingOwners[1]).toMatchObject({ isDirector: true, isOther: true, otherText: "Managing member of the fund's general partner" });
    expect(form.data.signatures).toHaveLength(2);
    expect(form.data.remarks).toBe('This amendment corrects the number of warrants reported on the original Form 4.');
  });

  it('keeps a footnote-only price as null with its footnote, and footnotes on the coding', async () => {
    const { data } = await load();
    const [purchase] = data.nonDerivativeTransactions;
    expect(purchase).toMatchObject({ transactionCode: 'P', timeliness: 'L', shares: 250000, pricePerShare: null, acquiredDisposed: 'A', sharesOwnedFollowing: 3125000, directOrIndirect: 'I' });
    expect(purchase!.footnoteRefs).toEqual({ pricePerShare: ['F1'], natureOfOwnership: ['F2'] });
    expect(data.footnotes.F1).toMatch(/^Purchased in the issuer's registered direct offering/);
    expect(data.nonDerivativeHoldings).toEqual([{ securityTitle: 'Common Stock', sharesOwnedFollowing: 12500, valueOwnedFollowing: null, directOrIndirect: 'D', natureOfOwnership: null, footnoteRefs: {} }]);

    const [warrants] = data.derivativeTransactions;
    expect(warrants).toMatchObject({ securityTitle: 'Warrants (right to buy)', conversionOrExercisePrice: 7.25, pricePerShare: 0.125, exerciseDate: '2025-05-18', expirationDate: null, underlyingSecurityTitle: 'Common Stock', underlyingSecurityShares: 125000 });
    expect(warrants!.footnoteRefs).toMatchObject({ transactionCode: ['F1'], expirationDate: ['F3'] });
  });

  it('refuses truncated XML', async () => {
    const text = await fixture('forms/form4-amendment-joint.xml');
    expect(() => parseOwnership(text.slice(0, text.indexOf('<derivativeTable>')), 'cut.xml')).toThrow(/not well-formed XML/);
    expect(() => parseOwnership('<ownershipDocument><documentType>4</documentType></ownershipDocument>', 'empty.xml')).toThrow(/issuer/);
  });
});

describe.runIf(hasCorpus)('parseOwnership on the corpus', () => {
  const load = async (file: string) => parseOwnership(await corpusFile(`forms/ownership/${file}`), file);

  it("Katherine Adams' Apple Form 4: seven 10b5-1 sales on 2022-05-04", async () => {
    const form = await load('4_0000320193-22-000061_AAPL_Katherine-Adams.txt');
    expect(form).toMatchObject({ formType: '4', accessionNumber: '0000320193-22-000061', filedAt: '2022-05-06', periodOfReport: '2022-05-04' });
    expect(form.data.issuer).toEqual({ cik: '0000320193', name: 'Apple Inc.', tradingSymbol: 'AAPL' });
    expect(form.data.reportingOwners[0]).toMatchObject({ cik: '0001462356', name: 'Adams Katherine L.', isOfficer: true, officerTitle: 'SVP, GC and Secretary' });
    const sales = form.data.nonDerivativeTransactions;
    expect(sales).toHaveLength(7);
    expect(sales[0]).toMatchObject({ transactionDate: '2022-05-04', transactionCode: 'S', shares: 9136, pricePerShare: 159.94, acquiredDisposed: 'D', sharesOwnedFollowing: 468198, directOrIndirect: 'D' });
    expect(sales[0]!.footnoteRefs).toEqual({ securityTitle: ['F1'], pricePerShare: ['F2'] });
    expect(sales[6]).toMatchObject({ shares: 2292, pricePerShare: 165.95, sharesOwnedFollowing: 452334 });
    expect(form.data.footnotes.F1).toContain('Rule 10b5-1 trading plan adopted by the reporting person on August 16, 2021');
  });

  it("Shoquist's NVIDIA Form 4: shares withheld for tax (F) and a trust holding", async () => {
    const form = await load('4_0001045810-23-000128_NVDA_Shoquist.txt');
    expect(form).toMatchObject({ accessionNumber: '0001045810-23-000128', filedAt: '2023-06-23', periodOfReport: '2023-06-21' });
    expect(form.parties).toEqual([
      { cik: '0001045810', name: 'NVIDIA CORP', role: 'issuer' },
      { cik: '0001283854', name: 'Shoquist Debora', role: 'reporting_owner' },
    ]);
    expect(form.data.reportingOwners[0]!.officerTitle).toBe('EVP, Operations');
    expect(form.data.nonDerivativeTransactions).toHaveLength(1);
    expect(form.data.nonDerivativeTransactions[0]).toMatchObject({ transactionCode: 'F', shares: 7449, pricePerShare: 430.45, acquiredDisposed: 'D', sharesOwnedFollowing: 205539, footnoteRefs: { shares: ['F1'], sharesOwnedFollowing: ['F2'] } });
    expect(form.data.nonDerivativeHoldings[0]).toMatchObject({ sharesOwnedFollowing: 139860, directOrIndirect: 'I', natureOfOwnership: 'By Trust', footnoteRefs: { natureOfOwnership: ['F3'] } });
  });

  it('the SunPower Form 3 that reports no securities', async () => {
    const form = await load('3_nosecurities.xml');
    expect(form).toMatchObject({ formType: '3', periodOfReport: '2021-12-31' });
    expect(form.data.noSecuritiesOwned).toBe(true);
    expect(form.data.issuer).toEqual({ cik: '0000867773', name: 'SUNPOWER CORP', tradingSymbol: 'SPWR' });
    expect(form.data.reportingOwners[0]).toMatchObject({ name: 'Hegde Vinayak', isDirector: true });
    expect([form.data.nonDerivativeTransactions, form.data.nonDerivativeHoldings, form.data.derivativeTransactions, form.data.derivativeHoldings]).toEqual([[], [], [], []]);
    expect(form.data.signatures).toEqual([{ name: '/s/ Lauren Walz, as attorney-in-fact for Vinayak Hegde', date: '2022-01-07' }]);
  });

  it("Snowflake Form 3 at the IPO: derivative holdings whose price and dates are footnotes", async () => {
    const { data } = await load('3_SNOW_form3.snow.xml');
    expect(data.noSecuritiesOwned).toBe(false);
    expect(data.derivativeHoldings).toHaveLength(6);
    expect(data.derivativeHoldings[0]).toMatchObject({ securityTitle: 'Series E Preferred Stock', conversionOrExercisePrice: null, exerciseDate: null, expirationDate: null, underlyingSecurityShares: 134018, natureOfOwnership: 'Limited Partnership' });
    expect(data.derivativeHoldings[0]!.footnoteRefs).toMatchObject({ conversionOrExercisePrice: ['F1'], expirationDate: ['F1'], underlyingSecurityTitle: ['F2', 'F3'] });
    expect(data.derivativeHoldings[1]).toMatchObject({ conversionOrExercisePrice: 3.74, expirationDate: '2028-04-14', underlyingSecurityShares: 383594 });
  });

  it('AAR Form 4 (.txt with a power-of-attorney exhibit), 374Water grants, Snowflake Forms 4 and 5', async () => {
    const aar = await load('4_0001127602-25-001055.txt');
    expect(aar.data.issuer).toMatchObject({ cik: '0000001750', tradingSymbol: 'AIR' });
    expect(aar.data.nonDerivativeTransactions[0]).toMatchObject({ transactionCode: 'S', shares: 1500, pricePerShare: 66.903, sharesOwnedFollowing: 37565 });

    const water = await load('4_374Water.xml');
    expect(water.data.aff10b5One).toBe(false);
    expect(water.data.derivativeTransactions[0]).toMatchObject({ transactionCode: 'A', shares: 757576, conversionOrExercisePrice: 0.33, expirationDate: '2035-04-29', exerciseDate: null, footnoteRefs: { exerciseDate: ['F1'], shares: ['F1'] } });

    const exercise = await load('4_SNOW_form4.snow.xml');
    expect(exercise.data.nonDerivativeTransactions[0]).toMatchObject({ transactionCode: 'M', shares: 200000, pricePerShare: 8.88, sharesOwnedFollowing: 301097 });
    expect(exercise.data.derivativeTransactions[0]).toMatchObject({ conversionOrExercisePrice: 8.88, expirationDate: '2029-08-26' });

    const annual = await load('5_SNOW_form5.snow.xml');
    expect(annual.formType).toBe('5');
    expect(annual.data.nonDerivativeTransactions[0]).toMatchObject({ transactionFormType: '5', transactionCode: 'G', shares: 61386, pricePerShare: 0, sharesOwnedFollowing: 54666, footnoteRefs: { transactionCode: ['F1'], sharesOwnedFollowing: ['F2'] } });
    expect(annual.data.nonDerivativeHoldings.map((h) => h.sharesOwnedFollowing)).toEqual([151188, 125737]);
  });

  it('refuses a truncated Form 4 submission', async () => {
    const text = await corpusFile('forms/ownership/4_0001045810-23-000128_NVDA_Shoquist.txt');
    expect(() => parseOwnership(text.slice(0, text.indexOf('</footnotes>')), 'cut.txt')).toThrow(/truncated submission/);
  });
});
