// A background ingest on the embedded database shares its one connection (and its thread) with the
// requests being answered: before each of its transactions it lets them finish (a request reading
// in two statements was held behind a whole item between them), but never waits on them for long.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RequestActivity } from '../core/requestActivity.ts';
import { runIngest } from '../ingest/run.ts';
import { fixtureCorpus, fixtureSource } from './data/fixtureSource.ts';
import { startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startIsolatedService();
});
afterAll(() => t?.close());

/** When each item of the run committed (its IngestItem row is written in its last transaction), in order. */
async function commits(runId: string): Promise<number[]> {
  const items = await t.service.services.prisma.ingestItem.findMany({ where: { runId }, select: { updatedAt: true }, orderBy: { updatedAt: 'asc' } });
  return items.map((i) => i.updatedAt.getTime());
}

describe('request activity', () => {
  it('is idle once the last request in flight ends', async () => {
    const activity = new RequestActivity();
    activity.begin();
    activity.begin();
    let idle = false;
    const waiting = activity.idle().then(() => (idle = true));
    activity.end();
    await Promise.resolve();
    expect(idle).toBe(false);
    activity.end();
    await waiting;
    expect(idle).toBe(true);
    expect(activity.count).toBe(0);
  });

  it('settles after its longest wait while requests keep coming', async () => {
    vi.useFakeTimers();
    try {
      const activity = new RequestActivity();
      activity.begin();
      let settled = false;
      const waiting = activity.settled(200).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(199);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(settled).toBe(true);
      expect(activity.count).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an ingest beside requests', () => {
  it('writes nothing while a request is being answered, and goes on when it ends', async () => {
    const { prisma, bus, logger, activity } = t.service.services;
    activity.begin();
    let ended = Infinity;
    const request = new Promise<void>((resolve) =>
      setTimeout(() => {
        ended = Date.now();
        activity.end();
        resolve();
      }, 100),
    );
    const summary = await runIngest({ prisma, bus, logger, activity }, fixtureSource(fixtureCorpus));
    await request;
    expect(summary.failed).toBe(0);
    expect(summary.written).toBe(Object.keys(fixtureCorpus).length);
    const committed = await commits(summary.runId);
    expect(committed).toHaveLength(Object.keys(fixtureCorpus).length);
    expect(committed[0]).toBeGreaterThanOrEqual(ended);
  });

  it('is not stopped by requests that never let up', async () => {
    const { prisma, bus, logger, activity } = t.service.services;
    // every item loaded again (none skipped as unchanged): each goes through its transactions
    await prisma.ingestItem.deleteMany();
    activity.begin(); // a request that outlasts the whole ingest
    try {
      const summary = await runIngest({ prisma, bus, logger, activity }, fixtureSource(fixtureCorpus));
      expect(summary.read).toBe(Object.keys(fixtureCorpus).length);
      const committed = await commits(summary.runId);
      // each item waited its longest before its transactions, not more
      for (let i = 1; i < committed.length; i++) expect(committed[i]! - committed[i - 1]!).toBeGreaterThanOrEqual(190);
    } finally {
      activity.end();
    }
  });
});
