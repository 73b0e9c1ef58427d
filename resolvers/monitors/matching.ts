// Which just-ingested records a monitor's saved read shows. Every new record is announced by a
// public event in the transaction that wrote it (filing.added, form.added, filing_event.added,
// facts.added), so "new since the monitor last looked" is "announced after its log position":
// the commit-safe order of the event log (subscriptions/eventLog.ts), in which a filing accepted
// long ago but ingested today is new today, and a transaction that commits late is never skipped.
//
// An event is first matched on the keys copied from the read (company, form family or event
// type, form), then the read itself runs over the announced records: the monitor's answer is
// always what the route would answer.
import type { Monitor } from '../../prisma/generated/client/client.ts';
import type { WatchedRecords } from './watchable.ts';
import { isNewTo, type LoggedEvent, type LogPosition } from '../../subscriptions/eventLog.ts';
import type { Context } from '../context.ts';
import { compareDecimals } from '../../core/decimal.ts';
import { parsedParams, watchedRoute } from './spec.ts';

export const announcingEvent: Record<WatchedRecords, string> = {
  filing: 'filing.added',
  form: 'form.added',
  filing_event: 'filing_event.added',
  fact: 'facts.added',
};

export type Watcher = Pick<Monitor, 'id' | 'orgId' | 'route' | 'params' | 'threshold' | 'records' | 'scope' | 'ciks' | 'form' | 'startTxid' | 'startSeq' | 'createdAt'>;

interface Announcement {
  cik?: string | null;
  accessionNumber?: string | null;
  id?: string;
  form?: string;
  formType?: string;
  family?: string;
  eventType?: string;
  accessionNumbers?: string[];
}

export const startOf = (m: Watcher): LogPosition => ({ txid: m.startTxid, seq: m.startSeq });

/** Whether an event can announce a record the monitor's read shows (a superset: the read decides). */
export function mayMatch(m: Watcher, event: LoggedEvent): boolean {
  if (event.type !== announcingEvent[m.records as WatchedRecords] || event.orgId !== null || !isNewTo({ start: startOf(m), createdAt: m.createdAt }, event)) return false;
  const data = event.payload as Announcement;
  if (m.ciks[0] !== '*' && !(data.cik && m.ciks.includes(data.cik))) return false;
  if (m.scope && (data.family ?? data.eventType) !== m.scope) return false;
  // a fact read's `form` is the form that reported the fact, which facts.added does not carry
  if (m.form && m.records !== 'fact' && (data.form ?? data.formType) !== m.form) return false;
  return true;
}

/** The records an event announces: accession numbers (filings, facts) or record ids (forms, events). */
export function announcedIds(event: LoggedEvent): string[] {
  const data = event.payload as Announcement;
  if (event.type === 'facts.added') return data.accessionNumbers ?? [];
  if (event.type === 'filing.added') return data.accessionNumber ? [data.accessionNumber] : [];
  return data.id ? [data.id] : [];
}

/** What the monitor's read shows of these records (its default view), past its threshold. */
export async function matchedItems(ctx: Context, m: Watcher, ids: string[]): Promise<Record<string, unknown>[]> {
  if (!ids.length) return [];
  const route = watchedRoute(m.route);
  const items = await route.watch.items(parsedParams(route, m.params as Record<string, string>), ctx, [...new Set(ids)]);
  return pastThreshold(items, m.threshold as { below?: string; above?: string } | null);
}

/** The items of a fact read whose value is past the saved threshold (every item without one). */
export function pastThreshold(items: Record<string, unknown>[], threshold: { below?: string; above?: string } | null | undefined): Record<string, unknown>[] {
  if (!threshold) return items;
  return items.filter((item) => {
    const value = String(item.value);
    return (threshold.below === undefined || compareDecimals(value, threshold.below) < 0) && (threshold.above === undefined || compareDecimals(value, threshold.above) > 0);
  });
}

/** A context in which a monitor's read runs on behalf of its organization (the worker has no request). */
export function monitorContext(services: Omit<Context, 'principal' | 'requestId'>, orgId: string, requestId: string): Context {
  return { ...services, principal: { kind: 'api_key', apiKeyId: 'monitor', orgId, scopes: ['read'] }, requestId };
}
