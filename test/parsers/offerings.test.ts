import { describe, expect, it } from 'vitest';
import { parseOffering, type OfferingDocument } from '../../ingest/parsers/offerings/offerings.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

async function corpusOffering(file: string): Promise<OfferingDocument> {
  return parseOffering({ text: await corpusFile(`filings/offerings/${file}`), name: file });
}

describe('offering fixtures', () => {
  it('reads an IPO prospectus: price, size, listing and the syndicate', async () => {
    const offering = parseOffering({ text: await fixture('offerings/ipo-424b4.htm'), name: 'ipo-424b4.htm' });
    expect(offering).toMatchObject({
      accessionNumber: null,
      // no header: the Rule 424(b)(4) legend names the form
      formType: '424B4',
      registrant: { cik: null, name: 'Northwind Robotics, Inc.' },
      registrationFileNumber: '333-287654',
      securitiesOffered: '4,500,000 Shares; Class A Common Stock',
      sharesOffered: 4500000,
      pricePerShare: 16,
      grossProceeds: 72000000,
      exchange: 'Nasdaq Global Market',
      ticker: 'NWRB',
      underwriters: ['Morgan Stanley', 'Jefferies', 'Needham & Company'],
      isPreliminary: false,
      isShelf: false,
      offeringType: 'ipo',
      confidence: 'high',
    });
    expect(offering.excerpt).toBe('This is an initial public offering of shares of Class A common stock of Northwind Robotics, Inc.');
  });

  it('reads a resale S-1: selling stockholders, the fee table amount, a preliminary shelf', async () => {
    const offering = parseOffering({ text: await fixture('offerings/resale-s1.txt'), name: 'resale-s1.txt' });
    expect(offering).toMatchObject({
      accessionNumber: '0001999903-25-000112',
      formType: 'S-1',
      filedAt: '2025-08-15',
      registrant: { cik: '0001999903', name: 'Cedar Ridge Biosciences, Inc.' },
      // "Registration No. 333-" is left blank until the SEC assigns one
      registrationFileNumber: null,
      sharesOffered: 3250000,
      pricePerShare: null,
      maximumAggregateOffering: 7020000,
      maximumAggregateOfferingSource: 'fee_table',
      ticker: 'CRBX',
      underwriters: [],
      isPreliminary: true,
      isShelf: true,
      offeringType: 'resale',
    });
  });

  it('refuses a document with no offering form in it', () => {
    expect(() => parseOffering({ text: '<html><body><p>Quarterly letter to shareholders</p></body></html>', name: 'letter.htm' })).toThrow(/letter\.htm/);
  });
});

describe.runIf(hasCorpus)('offering corpus', () => {
  it('Traws Pharma 424B4: a registered direct offering through a placement agent', async () => {
    const offering = await corpusOffering('424B4_0001104659-24-132924_Traws-Pharma.txt');
    expect(offering).toMatchObject({
      accessionNumber: '0001104659-24-132924',
      formType: '424B4',
      filedAt: '2024-12-31',
      registrant: { cik: '0001130598', name: 'Traws Pharma, Inc.' },
      registrationFileNumber: '333-273081',
      securitiesOffered: '608,197 Shares of Common Stock',
      sharesOffered: 608197,
      pricePerShare: 5.103,
      grossProceeds: 3103629.29,
      exchange: 'Nasdaq Capital Market',
      ticker: 'TRAW',
      underwriters: [], // the prospectus calls Tungsten the exclusive placement agent
      placementAgents: ['Tungsten Advisors'],
      isPreliminary: false,
      isShelf: true,
      // "… pursuant to this prospectus supplement … and a securities purchase agreement with each investor", through its placement agent
      offeringType: 'registered_direct',
    });
  });

  it('Alzamend 424B5: an at-the-market program of up to $3,000,000', async () => {
    const offering = await corpusOffering('424B5_0001214659-26-002941_Alzamend.txt');
    expect(offering).toMatchObject({
      registrant: { cik: '0001677077', name: 'Alzamend Neuro, Inc.' },
      registrationFileNumber: '333-273610',
      sharesOffered: null,
      pricePerShare: null,
      maximumAggregateOffering: 3000000,
      maximumAggregateOfferingSource: 'cover',
      ticker: 'ALZN',
      underwriters: [],
      salesAgents: ['Ascendiant Capital Markets, LLC'],
      offeringType: 'atm',
      confidence: 'high',
    });
    expect(offering.excerpt).toContain('At-The-Market Issuance Sales Agreement');
  });

  it('Imunon 424B5: shares with warrants, two placement agents, the total as printed', async () => {
    const offering = await corpusOffering('424B5_0001493152-25-029712_Imunon.txt');
    expect(offering).toMatchObject({
      filedAt: '2025-12-31',
      registrationFileNumber: '333-279425',
      sharesOffered: 330000,
      pricePerShare: 3.61,
      grossProceeds: 7000040.63,
      ticker: 'IMNN',
      underwriters: [],
      placementAgents: ['Maxim Group LLC', 'Brookline Capital Markets'],
      // "We are offering directly to a single healthcare-focused institutional investor …"
      offeringType: 'registered_direct',
      confidence: 'high',
    });
    expect(offering.excerpt).toMatch(/^We are offering directly to a single healthcare-focused institutional investor/);
    expect(offering.securitiesOffered).toBe(
      '330,000 Shares of Common Stock; Pre-funded Warrants to Purchase up to 1,609,114 Shares of Common Stock; Warrants to Purchase up to 1,939,114 Shares of Common Stock',
    );
  });

  it('Flushing Financial preliminary 424B5: blanks stay null, the bookrunners are named', async () => {
    const offering = await corpusOffering('424B5_FFIC_Flushing-Financial_preliminary_2024-12-12.html');
    expect(offering).toMatchObject({
      accessionNumber: null,
      formType: '424B5',
      registrant: { cik: null, name: 'Flushing Financial Corporation' },
      registrationFileNumber: '333-283312',
      securitiesOffered: 'Common Stock',
      sharesOffered: null,
      pricePerShare: null,
      grossProceeds: null,
      exchange: 'NASDAQ Global Select Market',
      ticker: 'FFIC',
      underwriters: ['Keefe, Bruyette & Woods', 'Piper Sandler', 'Raymond James'],
      isPreliminary: true,
      isShelf: true,
      offeringType: 'follow_on',
      // "SUBJECT TO COMPLETION, DATED DECEMBER 12, 2024": the only date the document gives itself
      documentDate: '2024-12-12',
      blanks: ['sharesOffered', 'pricePerShare', 'grossProceeds'],
    });
  });

  it('Vincerx POS AM: a deregistration offers nothing', async () => {
    const offering = await corpusOffering('POSAM_0001193125-25-110092_Vincerx.txt');
    expect(offering).toMatchObject({
      formType: 'POS AM',
      filedAt: '2025-05-01',
      registrant: { cik: '0001796129', name: 'Vincerx Pharma, Inc.' },
      registrationFileNumber: '333-284478',
      securitiesOffered: null,
      maximumAggregateOffering: null,
      isPreliminary: false,
      offeringType: 'deregistration',
      confidence: 'high',
    });
    expect(offering.excerpt).toContain('to deregister the unsold securities');
  });

  it('Acurx S-1: a resale registration; the mistyped fee total is passed over for the securities row', async () => {
    const offering = await corpusOffering('S-1_0001104659-23-076317_Acurx.txt');
    expect(offering).toMatchObject({
      formType: 'S-1',
      filedAt: '2023-06-29',
      registrant: { cik: '0001736243', name: 'Acurx Pharmaceuticals, Inc.' },
      registrationFileNumber: null,
      securitiesOffered: '2,666,666 Shares of Common Stock',
      sharesOffered: 2666666,
      maximumAggregateOffering: 6906664.94,
      maximumAggregateOfferingSource: 'fee_table',
      ticker: 'ACXP',
      isPreliminary: true,
      isShelf: true,
      offeringType: 'resale',
      confidence: 'high',
    });
  });

  it('Vincerx S-3 and S-3/A: a $100,000,000 universal shelf, and its exhibit-only amendment', async () => {
    const shelf = await corpusOffering('S-3_0001193125-25-012209_Vincerx.txt');
    expect(shelf).toMatchObject({
      formType: 'S-3',
      filedAt: '2025-01-24',
      registrationFileNumber: null,
      securitiesOffered: 'Debt Securities; Common Stock; Preferred Stock; Depositary Shares; Warrants; Rights',
      maximumAggregateOffering: 100000000,
      maximumAggregateOfferingSource: 'cover',
      ticker: 'VINC',
      isPreliminary: true,
      isShelf: true,
      offeringType: 'shelf',
      confidence: 'high',
    });
    const amendment = await corpusOffering('S-3A_0001193125-25-068723_Vincerx.txt');
    expect(amendment).toMatchObject({
      formType: 'S-3/A',
      filedAt: '2025-03-31',
      registrationFileNumber: '333-284478',
      securitiesOffered: null,
      maximumAggregateOffering: null,
      isShelf: true,
      offeringType: 'shelf',
    });
  });
});
