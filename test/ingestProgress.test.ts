// An ingest says how far it is while it runs: a log line at a steady pace (items done of total,
// records, records per second, time left), or one line redrawn on a terminal; and its run row
// holds the counts when it is through.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../prisma/db.ts';
import { ingestProgress } from '../ingest/progress.ts';
import { runIngest } from '../ingest/run.ts';
import { createLogger } from '../core/logger.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { fixtureCorpus, fixtureSource } from './data/fixtureSource.ts';
import { migratedPglite, scratchDatabase } from './harness.ts';

const items = Object.keys(fixtureCorpus).length;
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const scratch = process.env.DATABASE_URL ? await scratchDatabase() : { target: await migratedPglite(), drop: async () => {} };
  drop = scratch.drop;
  db = await openDatabase(scratch.target);
});
afterAll(async () => {
  await db.close();
  await drop();
});

describe('ingest progress', () => {
  it('goes to the log as lines of items done of total, records per second and time left, and the run row has the counts', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = createLogger('info', sink);
    const summary = await runIngest({ prisma: db.prisma, bus: createEventBus(undefined, logger), logger }, fixtureSource(fixtureCorpus), ingestProgress({ logger, intervalMs: 5 }));
    logger.flush();
    const progress = lines.filter((line) => typeof line.itemsTotal === 'number');
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) {
      expect(line.itemsTotal).toBe(items);
      expect(line.itemsDone as number).toBeLessThanOrEqual(items);
      expect(line.recordsPerSecond as number).toBeGreaterThanOrEqual(0);
      expect(String(line.msg)).toMatch(new RegExp(`^ingest: ${String(line.itemsDone)}/${items} items`));
    }
    const done = progress.map((line) => line.itemsDone as number);
    expect(done).toEqual([...done].sort((a, b) => a - b));

    const run = await db.prisma.ingestRun.findUniqueOrThrow({ where: { id: summary.runId } });
    expect(run.finishedAt).not.toBeNull();
    expect({ read: run.read, written: run.written, skipped: run.skipped, failed: run.failed }).toEqual({ read: items, written: summary.written, skipped: summary.skipped, failed: summary.failed });
  });

  it('on a terminal, redraws one line and clears it at the end', async () => {
    let text = '';
    const terminal = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
    const progress = ingestProgress({ logger: createLogger('silent'), terminal, intervalMs: 5 });
    progress.item(3, 10, 'companyfacts/CIK0000320193.json', 1200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    progress.finish();
    expect(text).not.toContain('\n');
    expect(text).toMatch(/^\ringest: 3\/10 items, 1,200 records, [\d,]+ records\/s, (\d+ (s|min)|\d+ min \d+ s) left\x1b\[K/);
    expect(text.endsWith('\r\x1b[K')).toBe(true);
  });
});
