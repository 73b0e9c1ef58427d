// Form 8-K current reports: the items reported and, for the items investors ask about most, the
// facts inside them (officer changes, vote results, restatements, auditor changes). The input is
// the primary HTML document or the full submission .txt; values are as printed, dates YYYY-MM-DD.
import { readEightK } from './eightKCover.ts';
import { parseAuditorChange } from './eightKAuditor.ts';
import { parseOfficerChanges } from './eightKOfficers.ts';
import { parseRestatement } from './eightKRestatement.ts';
import { splitItems, type ItemSection } from './eightKSections.ts';
import { excerptOf } from './eightKText.ts';
import { parseVotingResults } from './eightKVotes.ts';

export type Confidence = 'high' | 'medium' | 'low';

export interface OfficerChange {
  /** full name as printed; a "Mr. X" reference is resolved to the full name used elsewhere in the item */
  person: string;
  /** the role left, taken up, or held (for compensation), as printed without articles */
  position: string | null;
  change: 'departure' | 'appointment' | 'election' | 'compensation' | 'other';
  effectiveDate: string | null;
}

export interface VoteProposal {
  number: number;
  /** the proposal's own paragraph, as printed */
  description: string;
  proposalType: 'director_election' | 'say_on_pay' | 'say_on_frequency' | 'auditor_ratification' | 'equity_plan' | 'charter_amendment' | 'shareholder_proposal' | 'other';
  /** director elections: one entry per nominee, all sharing the proposal number */
  nominee?: string;
  /** votes exactly as printed (commas removed); null where the filing prints none or a dash */
  for: number | null;
  against: number | null;
  withheld: number | null;
  abstain: number | null;
  brokerNonVotes: number | null;
  /** say-on-frequency votes, which have no for/against: one, two and three years, and the frequency the holders chose */
  frequency?: { oneYear: number | null; twoYears: number | null; threeYears: number | null; selected: 1 | 2 | 3 | null };
  /** as the filing states it; null when it does not say */
  /** a say-on-frequency proposal's outcome is the frequency chosen */
  outcome: 'approved' | 'not_approved' | 'elected' | 'not_elected' | 'one_year' | 'two_years' | 'three_years' | null;
}

export type EightKEvent =
  | { item: '5.02'; type: 'officer_change'; changes: OfficerChange[]; excerpt: string; confidence: Confidence }
  | {
      item: '5.07';
      type: 'voting_results';
      meetingDate: string | null;
      meetingType: 'annual' | 'special' | null;
      proposals: VoteProposal[];
      parsingConfidence: Confidence;
      excerpt: string;
    }
  | {
      item: '4.02';
      type: 'restatement';
      /** as stated, e.g. 'fiscal year ended December 31, 2023' */
      affectedPeriods: string[];
      /** YYYY-MM-DD where the statement gives a date */
      periodEnds: string[];
      excerpt: string;
      confidence: Confidence;
    }
  | {
      item: '4.01';
      type: 'auditor_change';
      formerAuditor: string | null;
      newAuditor: string | null;
      /** what happened to the former auditor ('engaged' when the item only reports a new one) */
      change: 'dismissed' | 'resigned' | 'declined' | 'engaged' | 'other';
      excerpt: string;
      confidence: Confidence;
    }
  | { item: '2.02'; type: 'results_of_operations'; excerpt: string }
  | { item: string; type: 'other'; excerpt: string };

export interface EightKReport {
  /** from the submission header; null for a bare primary document */
  accessionNumber: string | null;
  /** '8-K' or '8-K/A' */
  formType: string;
  filedAt: string | null;
  /** the date of the earliest event reported */
  periodOfReport: string | null;
  /** CIK is 10 digits */
  company: { cik: string | null; name: string | null };
  /** item numbers like '5.02', '9.01', in document order */
  items: string[];
  /** one per item section found in the document */
  events: EightKEvent[];
}

function eventOf(section: ItemSection): EightKEvent {
  const excerpt = excerptOf(section.body);
  switch (section.item) {
    case '5.02':
      return { item: '5.02', type: 'officer_change', ...parseOfficerChanges(section.body), excerpt };
    case '5.07':
      return { item: '5.07', type: 'voting_results', ...parseVotingResults(section.body), excerpt };
    case '4.02':
      return { item: '4.02', type: 'restatement', ...parseRestatement(section.body), excerpt };
    case '4.01':
      return { item: '4.01', type: 'auditor_change', ...parseAuditorChange(section.body), excerpt };
    case '2.02':
      return { item: '2.02', type: 'results_of_operations', excerpt };
    default:
      return { item: section.item, type: 'other', excerpt };
  }
}

export function parseEightK(input: { text: string; name: string }): EightKReport {
  const cover = readEightK(input);
  const { sections } = splitItems(cover.text);
  if (!/^8-K/i.test(cover.formType) || (!sections.length && !cover.headerItems?.length)) {
    throw new Error(`${input.name}: not a Form 8-K current report (form ${cover.formType}, no item headings found)`);
  }
  return {
    accessionNumber: cover.accessionNumber,
    formType: cover.formType,
    filedAt: cover.filedAt,
    periodOfReport: cover.periodOfReport,
    company: cover.company,
    items: cover.headerItems ?? sections.map((s) => s.item),
    events: sections.map(eventOf),
  };
}
