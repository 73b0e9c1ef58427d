// What a monitor can watch: the list reads of the route catalogue that say how to run themselves
// over just-ingested records. The catalogue sits above this domain (its routes run the graph,
// whose monitor fields use this module), so it hands its watchable reads down once it is built
// (catalogue/routes/index.ts) rather than being imported from here.
import type { z } from 'zod';
import type { Context } from '../context.ts';

/** The records a list read shows, named by the public event that announces each new one. */
export type WatchedRecords = 'filing' | 'form' | 'filing_event' | 'fact';

/**
 * How a monitor runs a list read over just-ingested records: `items` answers what the read
 * (these params, the default view) shows of the records `ids` names, in the route's item shape.
 */
export interface Watch {
  records: WatchedRecords;
  /** the form family or event type the route lists; null when it lists every one */
  scope: string | null;
  items(params: { path: any; query: any; body: any }, ctx: Context, ids: string[]): Promise<Record<string, unknown>[]>;
  /** The first `limit` items the read (these params, the default view) lists now: a draft's preview. */
  latest(params: { path: any; query: any; body: any }, ctx: Context, limit: number): Promise<{ items: Record<string, unknown>[]; hasMore: boolean }>;
}

/** A GET list read of the catalogue that a monitor can save. */
export interface WatchableRead {
  path: string;
  params: { query?: z.ZodObject<z.ZodRawShape> };
  watch: Watch;
}

let provided: WatchableRead[] | undefined;

/** Called by the route catalogue once its table is built. */
export function provideWatchableReads(reads: WatchableRead[]): void {
  provided = reads;
}

/** The reads a monitor can save; the catalogue must have been loaded (every door loads it). */
export function watchableReads(): WatchableRead[] {
  if (!provided) throw new Error('The route catalogue has not been loaded, so no read can be watched yet.');
  return provided;
}
