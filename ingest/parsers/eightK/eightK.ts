// Form 8-K current reports: the items reported and, for the items investors ask about most, the
// facts inside them (officer changes, vote results, restatements, auditor changes). The input is
// the primary HTML document or the full submission .txt; values are as printed, dates YYYY-MM-DD.
import { readEightK } from './cover.ts';
import { parseAuditorChange } from './auditor.ts';
import { parseOfficerChanges } from './officers.ts';
import { parseRestatement } from './restatement.ts';
import type { PressRelease } from './exhibits.ts';
import { splitItems, type ItemSection } from './sections.ts';
import { excerptOf, proseSentences, spanOf, type SourceSpan } from './text.ts';
import { parseVotingResults } from './votes.ts';
import type { Confidence, OfficerChange, VoteProposal } from './types.ts';

/** Each event carries the sentence its values were read from (sourceSpan), or null and why (sourceSpanNullReason). */
export type EightKEvent = SourceSpan &
  (
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
    | { item: string; type: 'other'; excerpt: string }
  );

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
  /** the EX-99 press releases of a full submission; null when only the primary document was read */
  pressReleases: PressRelease[] | null;
}

/** An item read only for its text: its first sentence (an exhibit list has none). */
const firstSentence = (section: ItemSection) => spanOf(proseSentences(section.body)[0], `Item ${section.item}'s text holds no sentence (a list or table only)`);

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
      return { item: '2.02', type: 'results_of_operations', excerpt, ...firstSentence(section) };
    default:
      return { item: section.item, type: 'other', excerpt, ...firstSentence(section) };
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
    pressReleases: cover.pressReleases,
  };
}
