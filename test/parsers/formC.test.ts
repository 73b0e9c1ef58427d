import { describe, expect, it } from 'vitest';
import { parseFormC } from '../../ingest/parsers/forms/formC.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

const corpus = async (name: string) => parseFormC(await corpusFile(`forms/formc/${name}`), name);

describe('Form C fixture', () => {
  it('reads an amendment with a co-issuer, the intermediary and partial financials', async () => {
    const form = parseFormC(await fixture('forms/formC-amendment.xml'), 'formC-amendment.xml');
    expect(form).toMatchObject({ family: 'C', formType: 'C/A', accessionNumber: null, filedAt: null, data: { signatureDate: '2024-05-21' } }); // a notice states no filing date
    expect(form.data.natureOfAmendment).toBe('Extends the offering deadline');
    expect(form.data.offering).toMatchObject({ securityType: 'Debt', price: 1, targetAmount: 25000, maximumAmount: 250000, oversubscriptionAccepted: false, deadline: '2024-09-30', numberOfSecurities: null });
    expect(form.data.financials?.mostRecentFiscalYear).toMatchObject({ totalAssets: 310250.55, revenues: 801234.1, netIncome: -12045.3, cashAndEquivalents: null });
    expect(form.data.financials?.currentEmployees).toBe(7);
    expect(form.data.offeringJurisdictions).toEqual(['ME', 'NH']);
    expect(form.parties).toEqual([
      { cik: '0009990004', name: 'Saltmarsh Brewing Co.', role: 'issuer' },
      { cik: '0009990005', name: 'Saltmarsh Brewing CF SPV, LLC', role: 'issuer' },
      { cik: '0009990006', name: 'Example Funding Portal LLC', role: 'other' },
    ]);
  });

  it('throws on truncated XML', async () => {
    const text = await fixture('forms/formC-amendment.xml');
    expect(() => parseFormC(text.slice(0, text.indexOf('<signatureInfo>')), 'cut.xml')).toThrow(/malformed or truncated XML/);
  });
});

describe.runIf(hasCorpus)('Form C corpus', () => {
  it('Alto Experience C: offering terms, intermediary and two years of financials', async () => {
    const form = await corpus('C_Alto-Experience-Inc.xml');
    expect(form.formType).toBe('C');
    expect(form.data.issuer).toMatchObject({ cik: '0001743748', name: 'Alto Experience Inc.', jurisdiction: 'DE', dateOfIncorporation: '2018-02-08' });
    expect(form.data.intermediary).toEqual({ name: 'StartEngine Capital, LLC', cik: '0001665160', commissionFileNumber: '007-00007', crdNumber: null });
    expect(form.data.offering).toMatchObject({ securityTypeOther: 'Series CF Preferred Stock [PLACEHOLDER]', numberOfSecurities: 7352, price: 2.04, targetAmount: 14998.08, maximumAmount: 4999999.2, deadline: '2024-04-29', oversubscriptionAccepted: true });
    expect(form.data.financials).toEqual({
      currentEmployees: 42,
      mostRecentFiscalYear: { totalAssets: 43613963, cashAndEquivalents: 19928362, accountsReceivable: 1003626, shortTermDebt: 12943507, longTermDebt: 19180708, revenues: 28283258, costOfGoodsSold: 39159535, taxesPaid: 0, netIncome: -41357688 },
      priorFiscalYear: { totalAssets: 33761682, cashAndEquivalents: 17657652, accountsReceivable: 614200, shortTermDebt: 5986929, longTermDebt: 2784508, revenues: 10379706, costOfGoodsSold: 15633173, taxesPaid: 0, netIncome: -17917247 },
    });
    expect(form.data.signatures).toHaveLength(5);
    expect(form.filedAt).toBeNull();
    expect(form.data.signatureDate).toBe('2024-03-26');
  });

  it('Anesu Restorative Care C: a debt offering', async () => {
    const form = await corpus('C_Anesu-Restorative-Care-LLC.xml');
    expect(form.data.offering).toMatchObject({ securityType: 'Debt', price: 10, targetAmount: 20000, maximumAmount: 100000, deadline: '2024-05-02' });
    expect(form.data.intermediary).toMatchObject({ name: 'SMBX, Inc.', cik: '0001707214', commissionFileNumber: '007-00129' });
    expect(form.data.financials?.mostRecentFiscalYear).toMatchObject({ revenues: 1442805, netIncome: 58409, totalAssets: 47586 });
    expect(form.data.financials?.currentEmployees).toBe(12);
  });

  it('Pickleball Etc. C: membership interests through Andes Capital', async () => {
    const form = await corpus('C_Pickleball-Etc-LLC.xml');
    expect(form.data.offering).toMatchObject({ securityTypeOther: 'Membership Interests', numberOfSecurities: 41666, price: 1.2, targetAmount: 50000, maximumAmount: 950000, deadline: '2024-12-31' });
    expect(form.data.intermediary).toMatchObject({ name: 'ANDES CAPITAL GROUP, LLC', cik: '0001348811', crdNumber: '000139212' });
  });

  it('Hidden Sea C-U: the progress update', async () => {
    const form = await corpus('C-U_Hidden-Sea-USA-Inc.xml');
    expect(form.formType).toBe('C-U');
    expect(form.data.progressUpdate).toBe('50% and 100% of Target Reached');
    expect(form.data.fileNumber).toBe('020-33261');
    expect(form.data.offering).toMatchObject({ targetAmount: 10000, maximumAmount: 2500000, price: 2, numberOfSecurities: 1250000 });
  });

  it('EV Solar Kits C-AR: the annual report period and financials, no offering', async () => {
    const form = await corpus('C-AR_EV-Solar-Kits-LLC.xml');
    expect(form).toMatchObject({ formType: 'C-AR', periodOfReport: '2022-12-31' });
    expect(form.data.offering).toBeNull();
    expect(form.data.intermediary).toBeNull();
    expect(form.data.financials?.mostRecentFiscalYear).toMatchObject({ totalAssets: 145529, cashAndEquivalents: 143969, accountsReceivable: 1560, shortTermDebt: 144127, longTermDebt: 130000, netIncome: -145529 });
    expect(form.data.financials?.priorFiscalYear.netIncome).toBe(-1000);
  });

  it('Neurotez C-TR: only the issuer and signature', async () => {
    const form = await corpus('C-TR_Neurotez-Inc.xml');
    expect(form).toMatchObject({ formType: 'C-TR', filedAt: null, data: { signatureDate: '2024-03-28' } });
    expect(form.data.issuer).toMatchObject({ cik: '0001725567', name: 'Neurotez Inc.' });
    expect(form.data.financials).toBeNull();
    expect(form.data.offering).toBeNull();
  });
});
