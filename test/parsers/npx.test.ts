import { describe, expect, it } from 'vitest';
import { parseNpx } from '../../ingest/parsers/funds/npx.ts';
import { corpusFile, fixture, hasCorpus } from '../corpus.ts';

const corpus = async (name: string) => parseNpx(await corpusFile(`forms/npx/${name}`), name);

describe('N-PX fixture (full submission)', () => {
  it('joins the cover page and the vote table, with the accession from the container', async () => {
    const form = parseNpx(await fixture('forms/npx-full-submission.txt'), 'npx-full-submission.txt');
    expect(form).toMatchObject({ family: 'NPX', formType: 'N-PX', accessionNumber: '0009990009-25-000011', filedAt: '2025-08-28', periodOfReport: '2025-06-30', isSample: false });
    expect(form.data).toMatchObject({ hasCoverPage: true, registrantType: 'RMIC', filerCik: '0009990009', fileNumber: '811-99999', reportCalendarYear: '2025' });
    expect(form.data.series).toEqual([{ id: 'S000099999', name: 'Pinecrest Dividend Fund', lei: null }]);
    expect(form.data.votes).toHaveLength(2);
    expect(form.data.votes[0]).toMatchObject({
      issuerName: 'ORCHARD UTILITIES CORP.',
      cusip: '09999Y107',
      meetingDate: '2025-04-22',
      voteCategories: ['DIRECTOR ELECTIONS'],
      sharesVoted: 52000,
      sharesOnLoan: 1500,
      records: [
        { howVoted: 'FOR', sharesVoted: 50000, managementRecommendation: 'FOR' },
        { howVoted: 'AGAINST', sharesVoted: 2000, managementRecommendation: 'FOR' },
      ],
      series: 'S000099999',
    });
    expect(form.data.votes[1]).toMatchObject({ voteSource: 'SECURITY HOLDER', isin: null, records: [{ howVoted: 'ABSTAIN', sharesVoted: 52000, managementRecommendation: 'AGAINST' }] });
    expect(form.parties).toEqual([{ cik: '0009990009', name: 'Pinecrest Equity Trust', role: 'fund' }]);
  });

  it('throws when the vote table is cut off', async () => {
    const text = await fixture('forms/npx-full-submission.txt');
    const cut = text.slice(0, text.indexOf('</proxyTable>')) + '\n</XML>\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n';
    expect(() => parseNpx(cut, 'cut.txt')).toThrow(/cut\.txt \(proxy_votes\.xml\): malformed or truncated XML/);
  });
});

describe.runIf(hasCorpus)('N-PX corpus (SEC samples)', () => {
  it('KIM LLC vote table alone: seven votes with their counts', async () => {
    const form = await corpus('SEC-sample_KIM_LLC_proxy_votes.xml');
    expect(form).toMatchObject({ formType: 'N-PX', isSample: true, accessionNumber: null, periodOfReport: null });
    expect(form.data.hasCoverPage).toBe(false);
    expect(form.data.votes).toHaveLength(7);
    expect(form.data.votes[0]).toMatchObject({ issuerName: 'BIGCOMMERCE HOLDINGS, INC.', cusip: '08975P108', isin: 'US08975P1084', meetingDate: '2024-05-16', records: [{ howVoted: 'ABSTAIN', sharesVoted: 0, managementRecommendation: 'AGAINST' }] });
    expect(form.data.votes.map((v) => v.sharesVoted)).toEqual([0, 3159384, 15780426, 100292, 0, 11500000, 178791]);
    expect(form.data.votes[5]).toMatchObject({ issuerName: 'FREYR Battery SA', isin: 'LU2360697374', records: [{ howVoted: 'AGAINST', sharesVoted: 11500000, managementRecommendation: 'AGAINST' }] });
    expect(form.data.votes[4].records[0]?.howVoted).toBe('3 YEARS');
  });

  it('KIM LLC cover page: an institutional manager with one included manager', async () => {
    const form = await corpus('SEC-sample_KIM_LLC_sample.xml');
    expect(form).toMatchObject({ formType: 'N-PX', isSample: true, periodOfReport: '2024-06-30', filedAt: '2025-01-27' });
    expect(form.data).toMatchObject({ registrantType: 'IM', reportType: 'INSTITUTIONAL MANAGER VOTING REPORT', fileNumber: '028-22610', reportCalendarYear: '2024', votes: [] });
    expect(form.data.includedManagers).toEqual([{ serialNo: '1', name: 'Koch Industries, LLC', form13FFileNumber: '028-10337', secFileNumber: null }]);
    expect(form.parties).toEqual([
      { cik: '0001888968', name: 'KIM, LLC', role: 'manager' },
      { cik: null, name: 'Koch Industries, LLC', role: 'manager' },
    ]);
  });

  it('N-PX/A sample: the amendment details', async () => {
    const form = await corpus('SEC-sample_N-PX_A.xml');
    expect(form).toMatchObject({ formType: 'N-PX/A', isSample: true, periodOfReport: '2022-09-30' });
    expect(form.data).toMatchObject({ isAmendment: true, amendmentNumber: 1, amendmentType: 'NEW PROXY', registrantType: 'RMIC', investmentCompanyType: 'N-1A' });
    expect(form.parties).toEqual([{ cik: '0000350001', name: 'BIG FUND TRUST inc', role: 'fund' }]);
  });

  it('N-PX sample cover page', async () => {
    const form = await corpus('SEC-sample_N-PX_sample.xml');
    expect(form).toMatchObject({ formType: 'N-PX', isSample: true, periodOfReport: '2023-06-30', filedAt: '2024-05-15' });
    expect(form.data).toMatchObject({ filerCik: '0001125480', fileNumber: '811-21223', reportType: 'FUND VOTING REPORT', investmentCompanyType: 'N-2' });
  });

  it('ProxyVoteTable sample: one matter voted in three parts, N/A ISIN as absent', async () => {
    const form = await corpus('SEC-sample_ProxyVoteTable.xml');
    expect(form.isSample).toBe(true);
    expect(form.data.votes).toEqual([
      {
        issuerName: 'Issuer Name',
        cusip: '123456789',
        isin: null,
        figi: '1',
        meetingDate: '2022-10-11',
        voteDescription: 'token',
        voteCategories: ['SECTION 14A SAY-ON-PAY VOTES', 'OTHER'],
        otherVoteDescription: 'otherVoteDescription',
        voteSource: 'ISSUER',
        sharesVoted: 1,
        sharesOnLoan: 1,
        records: [
          { howVoted: 'WITHHOLD', sharesVoted: 1, managementRecommendation: 'AGAINST' },
          { howVoted: 'WITHHOLD', sharesVoted: 2, managementRecommendation: 'FOR' },
          { howVoted: 'WITHHOLD', sharesVoted: 3, managementRecommendation: 'FOR' },
        ],
        otherManagers: ['200', '100'],
        series: 's888895895',
        otherInfo: 'voteOtherInfo',
      },
    ]);
  });
});
