// The state of the service's ingests, from their IngestRun rows: what is loading now (any process
// on this database: the server's background ingest, `ids ingest` or `ids ingest --bulk` from a
// shell) and how the last finished run ended.
import type { IngestRun } from '../prisma/generated/client/client.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

/**
 * A running ingest writes its row between items, at most once a second; one item (a large
 * companyfacts on the embedded database) may take minutes. A row that has not moved for this long
 * and never finished belongs to a process that died.
 */
export const interruptedAfterMs = 10 * 60_000;

export type RunState = 'running' | 'finished' | 'interrupted';

export interface IngestRunView extends IngestRun {
  state: RunState;
  /** items read of total, 0..1; null while the run is still listing its items */
  fraction: number | null;
  recordsPerSecond: number | null;
  /** at the run's rate so far; null when finished or not yet measurable */
  secondsLeft: number | null;
}

export function viewOfRun(run: IngestRun, now = new Date()): IngestRunView {
  const state: RunState = run.finishedAt ? 'finished' : now.getTime() - run.updatedAt.getTime() > interruptedAfterMs ? 'interrupted' : 'running';
  const end = run.finishedAt ?? (state === 'running' ? now : run.updatedAt);
  const seconds = Math.max(0, (end.getTime() - run.startedAt.getTime()) / 1000);
  const fraction = run.total > 0 ? Math.min(1, run.read / run.total) : null;
  const secondsLeft = state === 'running' && fraction && fraction > 0 ? Math.round((seconds * (1 - fraction)) / fraction) : null;
  return { ...run, state, fraction, recordsPerSecond: seconds > 0 ? Math.round(run.records / seconds) : null, secondsLeft };
}

export async function ingestStatus(ctx: Context) {
  requireOrg(ctx);
  const now = new Date();
  const [unfinished, last] = await Promise.all([
    ctx.prisma.ingestRun.findMany({ where: { finishedAt: null }, orderBy: { startedAt: 'desc' }, take: 20 }),
    ctx.prisma.ingestRun.findFirst({ where: { finishedAt: { not: null } }, orderBy: { finishedAt: 'desc' } }),
  ]);
  const views = unfinished.map((run) => viewOfRun(run, now));
  const running = views.filter((run) => run.state === 'running');
  return {
    state: running.length ? ('running' as const) : last ? ('idle' as const) : ('never_run' as const),
    running,
    lastFinished: last ? viewOfRun(last, now) : null,
    interrupted: views.filter((run) => run.state === 'interrupted'),
    checkedAt: now,
  };
}
