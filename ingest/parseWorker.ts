// The entry of an ingest's parse thread (parsers.ts starts it with piscina): one item per message,
// answered with what its kind's handler parsed. scripts/build.mjs bundles this file as its own
// entry, dist/ingest-parse-worker.js.
import type { ItemInput } from './handlers.ts';
import { handlers } from './registry.ts';

export default function parseTask(input: ItemInput): unknown {
  return handlers[input.kind]!.parse(input);
}
