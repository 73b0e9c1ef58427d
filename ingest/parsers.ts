// Where an ingest parses its items: inline, or on a parse thread. An ingest that shares its event
// loop with a server (the embedded database's startup ingest, a command run through the server)
// parses on the thread, so that turning a 10-K's HTML into sections (a hundred milliseconds and
// more) never keeps a request waiting.
import { Piscina } from 'piscina';
import { assertEntryExists, threadEntry } from '../core/threadEntry.ts';
import type { ItemKind } from './classify.ts';
import type { ItemInput } from './handlers.ts';
import { handlers } from './registry.ts';

export interface ItemParser {
  parse(input: ItemInput): Promise<unknown>;
  close(): Promise<void>;
}

export const inlineParser: ItemParser = {
  parse: async (input) => handlers[input.kind]!.parse(input),
  close: async () => {},
};

/**
 * The SEC's JSON files are parsed here: JSON.parse is most of their parse, and copying the
 * thousands of small records it makes back from a thread took as long (a submissions file's
 * filings, a companyfacts file's facts).
 */
const parsedInline = new Set<ItemKind>(['company_tickers', 'company_tickers_exchange', 'submissions', 'companyfacts']);

export function threadParser(): ItemParser {
  const entry = threadEntry(import.meta.url, './parseWorker.ts', 'ingest-parse-worker.js');
  assertEntryExists(entry, 'ingest parse worker');
  const pool = new Piscina<ItemInput, unknown>({ ...entry, minThreads: 1, maxThreads: 1 });
  return {
    // a parser's error comes back as the item's reason, as it would inline
    parse: (input) => (parsedInline.has(input.kind) ? inlineParser.parse(input) : pool.run(input)),
    close: () => pool.destroy(),
  };
}
