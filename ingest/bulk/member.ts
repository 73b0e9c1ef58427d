// What the bulk runner does with an archive member: parse it (pure, before any transaction),
// then load it in the member's transaction, which also writes its done-mark.
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { BulkSession } from './connection.ts';
import { syncReachDays } from '../sync.ts';

/**
 * The derived data a loaded member leaves to the build after the load: 'facts' (concept
 * summaries, statements and dilution inputs of its company), 'dilution' (dilution inputs only:
 * filings of offering forms or dilution 8-Ks changed), 'signals' (no derived rows, but records
 * a signal can cite were added: the company's signals are announced), or nothing. Each of the
 * first two also has the company's signals announced.
 */
export type PendingDerived = 'facts' | 'dilution' | 'signals' | null;

export interface LoadedMember {
  /** rows written or updated, as the item ingest counts them (IngestItem.records) */
  records: number;
  /** rows of the member's main table written (facts, or filings), for the progress figures */
  rowsWritten: number;
  /** canonical events written in the transaction, published after it commits */
  events: BusEvent[];
  derived: PendingDerived;
  /** concepts (taxonomy and tag, as conceptKey makes them) the member's transaction made sure of */
  concepts?: string[];
}

/** What the run knows that a member's load may rely on. */
export interface LoadContext {
  /**
   * "Fact" was empty when the run began and is written without its secondary indexes: no
   * company's facts are held but those of this run's own members, one member per company.
   */
  firstFactLoad: boolean;
  /** concepts known to be held: written by an earlier load of this run that has committed */
  conceptsHeld: Set<string>;
  /**
   * The first filing day (YYYY-MM-DD) whose new filings and filing events are announced: an older
   * one is history being filled in, not news for monitors, webhooks and streams.
   */
  announceFrom: string;
}

/** The first day a bulk load run now announces (LoadContext.announceFrom): as far back as a sync reaches. */
export const bulkAnnounceFrom = (now = Date.now()) => new Date(now - syncReachDays * 86_400_000).toISOString().slice(0, 10);

export const conceptKey = (c: { taxonomy: string; tag: string }) => `${c.taxonomy}:${c.tag}`;

export interface PreparedMember {
  cik: string | null;
  /** rows parsed (facts, or filings) */
  rowCount: number;
  load(session: BulkSession, context: LoadContext): Promise<LoadedMember>;
}
