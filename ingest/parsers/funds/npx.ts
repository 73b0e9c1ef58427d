// Form N-PX (annual report of proxy voting record) of funds and, since 2024, institutional
// managers. A filing has two XML documents: the primary document (<edgarSubmission>: who
// reports, for which period) and the vote table (<proxyVoteTable>). A file may hold either one;
// a full submission holds both, and they are read into one record.
import type { ParsedForm, PartyRef } from '../records.ts';
import { type Address, address, child, children, cik, decimal, flag, isoDate, isSecSample, readXmlForm, required, text, texts, type XmlNode } from '../documents/xmlForm.ts';

export interface NpxVoteRecord {
  /** FOR, AGAINST, ABSTAIN, WITHHOLD, '1 YEAR', ... */
  howVoted: string | null;
  sharesVoted: number | null;
  managementRecommendation: string | null;
}

export interface NpxProxyVote {
  issuerName: string | null;
  cusip: string | null;
  isin: string | null;
  figi: string | null;
  meetingDate: string | null;
  voteDescription: string | null;
  /** e.g. 'SECTION 14A SAY-ON-PAY VOTES', 'DIRECTOR ELECTIONS' */
  voteCategories: string[];
  otherVoteDescription: string | null;
  /** ISSUER or SECURITY HOLDER */
  voteSource: string | null;
  sharesVoted: number | null;
  sharesOnLoan: number | null;
  records: NpxVoteRecord[];
  /** serial numbers of the included managers on whose behalf the vote was cast */
  otherManagers: string[];
  series: string | null;
  otherInfo: string | null;
}

export interface NpxIncludedManager {
  serialNo: string | null;
  name: string | null;
  form13FFileNumber: string | null;
  secFileNumber: string | null;
}

export interface NpxData {
  /** whether the primary document (cover page) was in the file; a bare vote table has none */
  hasCoverPage: boolean;
  /** RMIC (registered management investment company) or IM (institutional manager) */
  registrantType: string | null;
  investmentCompanyType: string | null;
  filerCik: string | null;
  reportingPerson: { name: string | null; phone: string | null; address: Address | null } | null;
  fileNumber: string | null;
  reportCalendarYear: string | null;
  yearOrQuarter: string | null;
  reportType: string | null;
  confidentialTreatment: boolean | null;
  isAmendment: boolean | null;
  amendmentNumber: number | null;
  amendmentType: string | null;
  includedManagers: NpxIncludedManager[];
  series: { id: string | null; name: string | null; lei: string | null }[];
  signature: { reportingPerson: string | null; signature: string | null; printedName: string | null; title: string | null; date: string | null } | null;
  votes: NpxProxyVote[];
}

/** Identifiers filed as 'N/A' are absent, not a security called N/A. */
const identifier = (value: string | null) => (value === null || /^n\/?a$/i.test(value) ? null : value);

function voteOf(node: XmlNode): NpxProxyVote {
  return {
    // Filers wrap long issuer names across lines.
    issuerName: text(node, 'issuerName')?.replace(/\s+/g, ' ') ?? null,
    cusip: identifier(text(node, 'cusip')),
    isin: identifier(text(node, 'isin')),
    figi: identifier(text(node, 'figi')),
    meetingDate: isoDate(text(node, 'meetingDate')),
    voteDescription: text(node, 'voteDescription'),
    voteCategories: texts(node, 'voteCategories', 'voteCategory', 'categoryType'),
    otherVoteDescription: text(node, 'otherVoteDescription'),
    voteSource: text(node, 'voteSource'),
    sharesVoted: decimal(text(node, 'sharesVoted')),
    sharesOnLoan: decimal(text(node, 'sharesOnLoan')),
    records: children(node, 'vote', 'voteRecord').map((r) => ({
      howVoted: text(r, 'howVoted'),
      sharesVoted: decimal(text(r, 'sharesVoted')),
      managementRecommendation: text(r, 'managementRecommendation'),
    })),
    otherManagers: texts(node, 'voteManager', 'otherManagers', 'otherManager'),
    series: text(node, 'voteSeries'),
    otherInfo: text(node, 'voteOtherInfo'),
  };
}

const emptyCover = {
  registrantType: null,
  investmentCompanyType: null,
  filerCik: null,
  reportingPerson: null,
  fileNumber: null,
  reportCalendarYear: null,
  yearOrQuarter: null,
  reportType: null,
  confidentialTreatment: null,
  isAmendment: null,
  amendmentNumber: null,
  amendmentType: null,
  includedManagers: [],
  series: [],
  signature: null,
} satisfies Omit<NpxData, 'hasCoverPage' | 'votes'>;

function coverOf(root: XmlNode, name: string): Omit<NpxData, 'hasCoverPage' | 'votes'> {
  const filerInfo = child(root, 'headerData', 'filerInfo');
  const form = required(child(root, 'formData'), 'formData', name);
  const cover = required(child(form, 'coverPage'), 'coverPage', name);
  const person = child(cover, 'reportingPerson');
  const amendment = child(cover, 'amendmentInfo');
  const signature = child(form, 'signaturePage');
  return {
    registrantType: text(filerInfo, 'registrantType'),
    investmentCompanyType: text(filerInfo, 'investmentCompanyType'),
    filerCik: cik(text(filerInfo, 'filer', 'issuerCredentials', 'cik')),
    reportingPerson: person ? { name: text(person, 'name'), phone: text(person, 'phoneNumber'), address: address(child(person, 'address')) } : null,
    fileNumber: text(cover, 'fileNumber'),
    reportCalendarYear: text(cover, 'reportCalendarYear'),
    yearOrQuarter: text(cover, 'yearOrQuarter'),
    reportType: text(cover, 'reportInfo', 'reportType'),
    confidentialTreatment: flag(text(cover, 'reportInfo', 'confidentialTreatment')),
    isAmendment: flag(text(amendment, 'isAmendment')),
    amendmentNumber: decimal(text(amendment, 'amendmentNo')),
    amendmentType: text(amendment, 'amendmentType'),
    includedManagers: children(form, 'summaryPage', 'otherManagers2', 'investmentManagers').map((m) => ({
      serialNo: text(m, 'serialNo'),
      name: text(m, 'name'),
      form13FFileNumber: text(m, 'form13FFileNumber'),
      secFileNumber: text(m, 'secFileNumber'),
    })),
    series: children(form, 'seriesPage', 'seriesDetails', 'seriesReports').map((s) => ({ id: text(s, 'idOfSeries'), name: text(s, 'nameOfSeries'), lei: text(s, 'leiOfSeries') })),
    signature: signature
      ? {
          reportingPerson: text(signature, 'reportingPerson'),
          signature: text(signature, 'txSignature'),
          printedName: text(signature, 'txPrintedSignature'),
          title: text(signature, 'txTitle'),
          date: isoDate(text(signature, 'txAsOfDate')),
        }
      : null,
  };
}

export function parseNpx(source: string, name: string): ParsedForm<NpxData> {
  const { documents, container } = readXmlForm(source, name, ['edgarSubmission', 'proxyVoteTable']);
  const primary = documents.find((d) => d.root === 'edgarSubmission')?.node ?? null;
  const tables = documents.filter((d) => d.root === 'proxyVoteTable').map((d) => d.node);

  const submissionType = text(primary, 'headerData', 'submissionType');
  const formType = submissionType ?? container?.formType ?? 'N-PX';
  if (!/^N-PX(\/A)?$/.test(formType)) throw new Error(`${name}: not a Form N-PX (submissionType ${formType})`);
  const cover = primary ? coverOf(primary, name) : emptyCover;
  // The schema requires at least one vote per table; an empty one is not a vote table we can trust.
  if (tables.some((t) => children(t, 'proxyTable').length === 0)) throw new Error(`${name}: proxy vote table without any <proxyTable>`);
  const votes = tables.flatMap((t) => children(t, 'proxyTable')).map(voteOf);

  const data: NpxData = { hasCoverPage: primary !== null, ...cover, votes };
  const parties: PartyRef[] = [];
  if (cover.filerCik || cover.reportingPerson?.name) {
    parties.push({ cik: cover.filerCik, name: cover.reportingPerson?.name ?? null, role: cover.registrantType === 'IM' ? 'manager' : 'fund' });
  }
  for (const manager of cover.includedManagers) if (manager.name) parties.push({ cik: null, name: manager.name, role: 'manager' });

  return {
    family: 'NPX',
    formType,
    accessionNumber: container?.accessionNumber ?? null,
    filedAt: container?.filedAt ?? cover.signature?.date ?? null,
    periodOfReport: container?.periodOfReport ?? isoDate(text(primary, 'headerData', 'filerInfo', 'periodOfReport')),
    parties,
    isSample: isSecSample(name),
    data,
  };
}
