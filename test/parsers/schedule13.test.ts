import { describe, expect, it } from 'vitest';
import { parseSchedule13 } from '../../ingest/parsers/ownership/schedule13.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

describe('Schedule 13G/A fixture', () => {
  it('reads the amendment, the reporting person with its CIK and item 4 as filed', async () => {
    const form = parseSchedule13(await fixture('forms/schedule13G-amendment.xml'), 'schedule13G-amendment.xml');
    expect(form).toMatchObject({ family: '13DG', formType: 'SCHEDULE 13G/A', filedAt: '2026-02-10', periodOfReport: '2025-12-31' });
    expect(form.data).toMatchObject({ schedule: '13G', isAmendment: true, amendmentNumber: 2, previousAccessionNumber: '0009990007-25-000002', rulesDesignated: ['Rule 13d-1(b)'], typeOfPersonFiling: ['IA'] });
    expect(form.data.reportingPersons).toEqual([
      expect.objectContaining({ cik: '0009990007', soleVotingPower: 1204500, soleDispositivePower: 1310000, aggregateAmountOwned: 1310000, percentOfClass: 4.7, typeOfReportingPerson: ['IA', 'PN'] }),
    ]);
    expect(form.data.ownershipItem).toMatchObject({ amountBeneficiallyOwned: '1,310,000', percentOfClass: '4.7%' });
    // the filer is the reporting person: listed once
    expect(form.parties).toEqual([
      { cik: '0009990008', name: 'Bluefin Analytics Inc.', role: 'issuer' },
      { cik: '0009990007', name: 'Westerly Capital Advisors LP', role: 'reporting_owner' },
    ]);
  });

  it('throws on truncated XML', async () => {
    const text = await fixture('forms/schedule13G-amendment.xml');
    expect(() => parseSchedule13(text.slice(0, text.indexOf('<items>')), 'cut.xml')).toThrow(/malformed or truncated XML/);
  });
});

describe.runIf(hasCorpus)('Schedule 13D/G corpus', () => {
  it('Aadi Bioscience 13D: shares, percent of class, source of funds and purpose', async () => {
    const form = parseSchedule13(await corpusFile('forms/13dg/SC13D_schedule13d.xml'), 'SC13D_schedule13d.xml');
    expect(form).toMatchObject({ formType: 'SCHEDULE 13D', periodOfReport: '2024-12-31', filedAt: '2024-12-31' });
    expect(form.data.issuer).toMatchObject({ cik: '0001422142', name: 'Aadi Bioscience, Inc.', cusip: '00032Q104' });
    expect(form.data.securitiesClass).toBe('Common stock, par value $0.0001 per share');
    const [bml, leonard] = form.data.reportingPersons;
    expect(bml).toMatchObject({ name: 'BML Investment Partners, L.P.', cik: '0001373604', sourceOfFunds: ['WC'], citizenshipOrOrganization: 'DE', soleVotingPower: 0, sharedVotingPower: 2100000, sharedDispositivePower: 2100000, aggregateAmountOwned: 2100000, percentOfClass: 8.5, typeOfReportingPerson: ['PN'] });
    expect(leonard).toMatchObject({ name: 'Leonard Braden Michael', cik: '0001373603', soleVotingPower: 335000, aggregateAmountOwned: 2435000, percentOfClass: 9.9, typeOfReportingPerson: ['IN'] });
    expect(form.data.sourceOfFundsText).toMatch(/^BML Investment Partners, L\.P\. holds 2,100,000 shares/);
    expect(form.data.purposeOfTransaction).toMatch(/^The Reporting Persons purchased the Common Stock reported hereunder for investment purposes/);
    expect(form.parties.filter((p) => p.role === 'reporting_owner').map((p) => p.cik)).toEqual(['0001373604', '0001373603']);
  });

  it('Jushi Holdings 13G: two Marex reporting persons at 5.1%', async () => {
    const form = parseSchedule13(await corpusFile('forms/13dg/SC13G_schedule13g.xml'), 'SC13G_schedule13g.xml');
    expect(form).toMatchObject({ formType: 'SCHEDULE 13G', periodOfReport: '2025-11-19', filedAt: '2025-11-26' });
    expect(form.data.issuer).toMatchObject({ cik: '0001909747', name: 'Jushi Holdings Inc.', cusip: '48213Y107' });
    expect(form.data.rulesDesignated).toEqual(['Rule 13d-1(c)']);
    expect(form.data.reportingPersons.map((p) => [p.name, p.citizenshipOrOrganization, p.soleVotingPower, p.aggregateAmountOwned, p.percentOfClass, p.typeOfReportingPerson])).toEqual([
      ['Marex Securities Products Inc.', 'DE', 10000000, 10000000, 5.1, ['CO']],
      ['Marex Group plc', 'X0', 10000000, 10000000, 5.1, ['OO']],
    ]);
    expect(form.data.ownershipItem).toMatchObject({ amountBeneficiallyOwned: '10000000', percentOfClass: '5.08' });
    expect(form.parties).toContainEqual({ cik: '0002048490', name: null, role: 'filer' });
  });
});
