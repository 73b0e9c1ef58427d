// A background ingest on the embedded database shares its one connection with the requests being
// answered: before each item it lets them finish (a request reading in two statements was held
// behind a whole item between them), but never waits on them for long.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RequestActivity } from '../core/requestActivity.ts';
import { runIngest } from '../ingest/run.ts';
import type { Source } from '../ingest/sources/types.ts';
import { fixtureCorpus, fixtureSource } from './data/fixtureSource.ts';
import { startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
beforeAll(async () => {
  t = await startIsolatedService();
});
afterAll(() => t?.close());

/** The fixture corpus, noting when each item is read. */
function watchedSource(reads: number[]): Source {
  const inner = fixtureSource(fixtureCorpus);
  return {
    describe: () => inner.describe(),
    async *items() {
      for await (const item of inner.items()) yield { ...item, read: () => (reads.push(performance.now()), item.read()) };
    },
  };
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
  it('reads no item while a request is being answered, and goes on when it ends', async () => {
    const { prisma, bus, logger, activity } = t.service.services;
    const reads: number[] = [];
    activity.begin();
    let ended = Infinity;
    const request = new Promise<void>((resolve) =>
      setTimeout(() => {
        ended = performance.now();
        activity.end();
        resolve();
      }, 100),
    );
    const summary = await runIngest({ prisma, bus, logger, activity }, watchedSource(reads));
    await request;
    expect(summary.failed).toBe(0);
    expect(reads.length).toBe(Object.keys(fixtureCorpus).length);
    expect(reads[0]).toBeGreaterThanOrEqual(ended);
  });

  it('is not stopped by requests that never let up', async () => {
    const { prisma, bus, logger, activity } = t.service.services;
    activity.begin(); // a request that outlasts the whole ingest
    try {
      const reads: number[] = [];
      const summary = await runIngest({ prisma, bus, logger, activity }, watchedSource(reads));
      expect(summary.read).toBe(Object.keys(fixtureCorpus).length);
      // each item waited its longest, not more
      for (let i = 1; i < reads.length; i++) expect(reads[i]! - reads[i - 1]!).toBeGreaterThanOrEqual(190);
    } finally {
      activity.end();
    }
  });
});
