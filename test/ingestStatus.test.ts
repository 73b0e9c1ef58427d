// GET /v1/ingest/status (and the graph's ingestStatus) shows an ingest while it runs, in any
// process on the database, and how the last one ended; a run whose process died is told apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIngest } from '../ingest/run.ts';
import type { Source } from '../ingest/sources/types.ts';
import { fixtureCorpus, fixtureSource } from './data/fixtureSource.ts';
import { call, orgWithKey, startIsolatedService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startIsolatedService();
  ({ key } = await orgWithKey(t));
});
afterAll(() => t?.close());

const items = Object.keys(fixtureCorpus).length;

/** The fixture corpus, whose second item waits to be read until `release` is called. */
function heldSource(): { source: Source; reached: Promise<void>; release: () => void } {
  const inner = fixtureSource(fixtureCorpus);
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reachedHold = new Promise<void>((resolve) => (reached = resolve));
  let index = 0;
  const source: Source = {
    describe: () => inner.describe(),
    async *items() {
      for await (const item of inner.items()) {
        const held = ++index === 2;
        yield held ? { ...item, read: async () => (reached(), await released, item.read()) } : item;
      }
    },
  };
  return { source, reached: reachedHold, release };
}

const status = async () => {
  const answer = await call(t, 'GET', '/v1/ingest/status', { key });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('ingest status', () => {
  it('says no ingest has run on a new database, and refuses a caller without a key', async () => {
    expect(await status()).toMatchObject({ object: 'ingest_status', state: 'never_run', running: [], lastFinished: null, interrupted: [] });
    expect((await call(t, 'GET', '/v1/ingest/status')).status).toBe(401);
  });

  it('shows a run while it works and how it ended, through REST and the graph alike', async () => {
    const { prisma, bus } = t.service.services;
    const { source, reached, release } = heldSource();
    const done = runIngest({ prisma, bus, logger: t.service.services.logger }, source);
    // The loading order sorts items, so the held one is read at some point of the run, not second.
    await reached;
    const during = await status();
    expect(during.state).toBe('running');
    expect(during.running).toHaveLength(1);
    const [run] = during.running;
    expect(run).toMatchObject({ state: 'running', total: items, finishedAt: null, source: source.describe() });
    expect(run.read).toBeLessThan(items);
    expect(run.fraction).toBe(run.read / items);

    const graph = await call(t, 'POST', '/graphql', { key, body: { query: '{ ingestStatus { state running { id total } } }' } });
    expect(graph.body.data.ingestStatus).toEqual({ state: 'running', running: [{ id: run.id, total: items }] });

    release();
    const summary = await done;
    const after = await status();
    expect(after.state).toBe('idle');
    expect(after.running).toEqual([]);
    expect(after.lastFinished).toMatchObject({ id: summary.runId, state: 'finished', total: items, read: items, written: summary.written, skipped: summary.skipped, failed: summary.failed, records: summary.records, fraction: 1, secondsLeft: null });
    expect(after.lastFinished.records).toBeGreaterThan(0);
  });

  it('tells a run whose process died (no counts for 10 minutes, never finished) from a running one', async () => {
    const { prisma } = t.service.services;
    await prisma.$executeRaw`INSERT INTO "IngestRun" ("id", "source", "startedAt", "updatedAt", "total", "read") VALUES ('run_killed_status_test', 'a killed run', now() - interval '1 hour', now() - interval '11 minutes', 10, 4)`;
    const answer = await status();
    expect(answer.state).toBe('idle');
    expect(answer.running).toEqual([]);
    expect(answer.interrupted).toEqual([expect.objectContaining({ id: 'run_killed_status_test', state: 'interrupted', read: 4, total: 10, secondsLeft: null })]);
  });
});
