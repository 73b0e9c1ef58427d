// The shapes the 8-K item readers share: how sure a reading is, and the records of items 5.02 and 5.07.

import type { SourceSpan } from './text.ts';

export type Confidence = 'high' | 'medium' | 'low';

export interface OfficerChange {
  /** full name as printed; a "Mr. X" reference is resolved to the full name used elsewhere in the item */
  person: string;
  /** the role left, taken up, or held (for compensation), as printed without articles */
  position: string | null;
  change: 'departure' | 'appointment' | 'election' | 'compensation' | 'other';
  effectiveDate: string | null;
}

export interface VoteProposal extends SourceSpan {
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
