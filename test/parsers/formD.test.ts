import { describe, expect, it } from 'vitest';
import { parseFormD } from '../../ingest/parsers/forms/formD.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('Form D fixture', () => {
  it('keeps an indefinite offering amount as the word, never as 0', async () => {
    const form = parseFormD(await fixture('forms/formD-indefinite.xml'), 'formD-indefinite.xml');
    expect(form.data.totalOfferingAmount).toBeNull();
    expect(form.data.totalOfferingAmountText).toBe('Indefinite');
    expect(form.data.totalRemaining).toBeNull();
    expect(form.data.totalRemainingText).toBe('Indefinite');
    expect(form.data.totalAmountSold).toBe(12500000);
  });

  it('reads the amendment, investors, fees and the issuer as filed', async () => {
    const form = parseFormD(await fixture('forms/formD-indefinite.xml'), 'formD-indefinite.xml');
    expect(form).toMatchObject({ family: 'D', formType: 'D/A', accessionNumber: null, filedAt: null, isSample: false, data: { signatureDate: '2024-05-02' } }); // a notice states no filing date
    expect(form.data).toMatchObject({
      isAmendment: true,
      previousAccessionNumber: '0009990001-24-000001',
      dateOfFirstSale: null,
      firstSaleYetToOccur: true,
      hasNonAccreditedInvestors: true,
      numberOfNonAccreditedInvestors: 3,
      totalNumberAlreadyInvested: 41,
      salesCommissions: { amount: 125000, isEstimate: true },
      findersFees: { amount: 15000, isEstimate: false },
      federalExemptions: ['06c', '3C.7'],
      securityTypes: ['Pooled Investment Fund Interests', 'Other'],
      securityTypeOtherDescription: 'Side pocket interests',
      investmentFundType: 'Hedge Fund',
      aggregateNetAssetValueRange: '$5,000,001 - $25,000,000',
      minimumInvestmentAccepted: 250000,
    });
    expect(form.data.issuer).toMatchObject({ cik: '0009990001', entityTypeOther: 'Series limited partnership', incorporationAge: 'Yet to Be Formed', yearOfIncorporation: null, previousNames: [] });
    expect(form.data.salesCompensation).toEqual([
      { name: 'Northgate Securities LLC', crdNumber: '123456', associatedBrokerDealerName: null, associatedBrokerDealerCrdNumber: null, statesOfSolicitation: ['All States'], foreignSolicitation: true },
    ]);
    expect(form.parties).toEqual([
      { cik: '0009990001', name: 'Harbor Lane Opportunity Fund, LP', role: 'issuer' },
      { cik: null, name: 'Ada Quinlan', role: 'related_person' },
    ]);
  });

  it('throws on truncated XML instead of returning part of the notice', async () => {
    const text = await fixture('forms/formD-indefinite.xml');
    expect(() => parseFormD(text.slice(0, text.indexOf('</offeringSalesAmounts>')), 'cut.xml')).toThrow(/cut\.xml: malformed or truncated XML/);
  });

  it('refuses another form', async () => {
    const form144 = await fixture('forms/form144-amendment.xml');
    expect(() => parseFormD(form144, 'f144.xml')).toThrow(/f144\.xml/);
  });
});

describe.runIf(hasCorpus)('Form D corpus', () => {
  it("Shepherd's Finance D/A: amounts, investors, exemption, amendment", async () => {
    const name = 'D_CIK0001544190_Shepherds-Finance.xml';
    const form = parseFormD(await corpusFile(`forms/formd/${name}`), name);
    expect(form.formType).toBe('D/A');
    expect(form.filedAt).toBeNull();
    expect(form.data.signatureDate).toBe('2023-01-31');
    expect(form.data.issuer).toMatchObject({ cik: '0001544190', name: "Shepherd's Finance, LLC", jurisdictionOfIncorporation: 'DELAWARE', incorporationAge: 'Over Five Years Ago', previousNames: ['84 RE Partners, LLC'], phone: '(302) 752-2688' });
    expect(form.data).toMatchObject({
      totalOfferingAmount: 8000000,
      totalAmountSold: 5725051,
      totalRemaining: 2274949,
      totalNumberAlreadyInvested: 13,
      hasNonAccreditedInvestors: false,
      federalExemptions: ['06b'],
      industryGroup: 'Other Banking and Financial Services',
      isAmendment: true,
      previousAccessionNumber: '0001544190-19-000002',
      dateOfFirstSale: '2017-03-16',
      moreThanOneYear: true,
      securityTypes: ['Equity'],
      salesCompensation: [],
    });
    expect(form.data.relatedPersons).toHaveLength(7);
    expect(form.data.relatedPersons[0]).toMatchObject({ name: 'Daniel M. Wallach', relationships: ['Executive Officer', 'Director'] });
    expect(form.data.signatures[0]).toMatchObject({ nameOfSigner: 'Daniel M. Wallach', title: 'Chief Executive Officer', date: '2023-01-31' });
  });

  it('AP Fund IV: a pooled fund with a co-issuer and 3C.1', async () => {
    const name = 'D_CIK0001958740_AP-Fund-IV.xml';
    const form = parseFormD(await corpusFile(`forms/formd/${name}`), name);
    expect(form.data).toMatchObject({
      totalOfferingAmount: 659752,
      totalAmountSold: 659752,
      totalRemaining: 0,
      totalNumberAlreadyInvested: 27,
      federalExemptions: ['06b', '3C.1'],
      investmentFundType: 'Venture Capital Fund',
      is40ActFund: false,
      minimumInvestmentAccepted: 1400,
      grossProceedsUsed: { amount: 6660, isEstimate: true },
      dateOfFirstSale: '2023-01-20',
    });
    expect(form.data.issuer).toMatchObject({ name: 'AP Fund IV, a series of Inference Technology Partners, LP', yearOfIncorporation: '2022', entityType: 'Limited Partnership' });
    expect(form.parties.filter((p) => p.role === 'issuer').map((p) => p.cik)).toEqual(['0001958740', '0001963203']);
  });

  it('1685 38th REIT: sales commissions and compensated brokers', async () => {
    const name = 'D_CIK0001961089_1685-38th-REIT.xml';
    const form = parseFormD(await corpusFile(`forms/formd/${name}`), name);
    expect(form.data).toMatchObject({
      totalOfferingAmount: 125000,
      totalAmountSold: 125000,
      totalRemaining: 0,
      totalNumberAlreadyInvested: 125,
      federalExemptions: ['06b', '3C', '3C.7'],
      industryGroup: 'REITS and Finance',
      salesCommissions: { amount: 6250, isEstimate: false },
      feesClarification: '5% of total amount sold',
      securityTypes: ['Equity', 'Pooled Investment Fund Interests'],
    });
    expect(form.data.issuer.name).toBe('1685 38th REIT, L.L.C.');
    expect(form.data.relatedPersons).toHaveLength(14);
    expect(form.data.salesCompensation.map((r) => r.name)).toEqual(['Charles Harrison', 'Lori Mayfield', 'Patrick Whelchel', 'Scott Harrison']);
    expect(form.data.salesCompensation[0]).toMatchObject({ crdNumber: '3071551', associatedBrokerDealerName: 'H & L Equities, LLC', statesOfSolicitation: ['FL', 'GA', 'TX'] });
  });
});
