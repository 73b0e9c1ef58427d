// The entry of the bulk ingest's prepare threads (preparePool.ts starts them with piscina): one
// archive member per message, answered with its rows. scripts/build.mjs bundles this file as its
// own entry, dist/bulk-prepare-worker.js.
import { prepareMember, type MemberTask, type PreparedRows } from './prepare.ts';

export default function prepareTask(task: MemberTask): PreparedRows {
  return prepareMember(task);
}
