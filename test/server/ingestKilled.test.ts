// kill -9 of `ids ingest` in the middle of a run, then the same command again: the database ends
// exactly as one clean run leaves it (the same filings, facts and values, item by item), and
// `ingest:failures` lists nothing left over from the run that died. Real processes (the compiled
// CLI) on PostgreSQL databases of the test's own, reading Apple's files of the corpus through a
// folder of symlinks.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCorpus } from '../corpus.ts';
import { eventually, scratchDatabase } from '../harness.ts';
import { appleFiles, appleSource, ingestSnapshot } from '../support/appleIngest.ts';
import { postgres, query } from '../support/tableSnapshot.ts';
import { buildOnce, killAll, runCli, spawnCli, stop } from '../support/processes.ts';

type Database = Awaited<ReturnType<typeof scratchDatabase>>;

const snapshot = (url: string) => ingestSnapshot(postgres(url));

describe.runIf(hasCorpus)('kill -9 during an ingest, then the ingest again', { timeout: 120_000 }, () => {
  let source: string;
  let clean: Database;
  let killed: Database;

  beforeAll(async () => {
    buildOnce();
    source = await appleSource();
    [clean, killed] = await Promise.all([scratchDatabase(), scratchDatabase()]);
  }, 60_000);
  afterAll(async () => {
    await killAll();
    await Promise.all([clean?.drop(), killed?.drop()]);
    if (source) await rm(source, { recursive: true, force: true });
  });

  it('ends as one clean run: the same filings, facts and values, and no failure left behind', async () => {
    // the clean run, on a database of its own, while the other is cut and run again
    const cleanRun = runCli(clean.url!, 'ingest', '--source', source).then(async (lines) => ({ lines, snapshot: await snapshot(clean.url!) }));

    // Killed once some items are in and the facts are being written.
    const child = spawnCli(killed.url!, 'ingest', '--source', source);
    await eventually('the first items of the run to be written', async () => Number((await query<{ n: string }>(killed.url!, `SELECT count(*) AS n FROM "IngestItem"`))[0]!.n) >= 1, 60_000);
    await stop(child, 'SIGKILL');
    const [cut] = await query<{ finished: Date | null; items: string }>(killed.url!, `SELECT (SELECT "finishedAt" FROM "IngestRun") AS finished, (SELECT count(*) FROM "IngestItem") AS items`);
    expect(cut!.finished, 'the run was cut short').toBeNull();
    const kept = Number(cut!.items);
    expect(kept).toBeLessThan(appleFiles.length);

    const again = await runCli(killed.url!, 'ingest', '--source', source);
    // what the first run wrote is kept (skipped as unchanged), the rest written now
    expect(again.at(-1)).toMatch(new RegExp(`read ${appleFiles.length}, written ${appleFiles.length - kept}, skipped ${kept}, failed 0`));
    const [after, failures, expected] = await Promise.all([snapshot(killed.url!), runCli(killed.url!, 'ingest:failures'), cleanRun]);

    expect(expected.lines.at(-1)).toMatch(new RegExp(`read ${appleFiles.length}, written ${appleFiles.length}, skipped 0, failed 0`));
    expect(expected.snapshot.revenue).toEqual(['391035000000']);
    expect(expected.snapshot.counts.Fact).toBeGreaterThan(20_000);
    expect(after.items).toEqual(expected.snapshot.items);
    expect(after.counts).toEqual(expected.snapshot.counts);
    expect(after.digests).toEqual(expected.snapshot.digests);
    expect(after.revenue).toEqual(['391035000000']);
    // as after the clean run: no item failed or partly loaded
    expect(failures.at(-1)).toBe('0 failed, 0 partly loaded');
    expect(failures.filter((line) => /^(failed|partial)\t/.test(line))).toEqual([]);
  });
});
