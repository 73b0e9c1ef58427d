// kill -9 of `ids ingest` in the middle of a run, then the same command again: the database ends
// exactly as one clean run leaves it (the same filings, facts and values, item by item), and
// `ingest:failures` lists nothing left over from the run that died. Real processes (the compiled
// CLI) on PostgreSQL databases of the test's own, reading Apple's files of the corpus through a
// folder of symlinks.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { eventually, scratchDatabase } from '../harness.ts';
import { query, tableCounts } from '../support/tableSnapshot.ts';
import { buildOnce, killAll, runCli, spawnCli, stop } from '../support/processes.ts';

/** Some of Apple's files, in the order the ingest loads them: its filings index, its facts (the longest item), its FY2024 10-K and two forms. */
const appleFiles = [
  'submissions/CIK0000320193.json',
  'companyfacts/CIK0000320193.json',
  'filings/10k/10-K_0000320193-24-000123_AAPL_FY2024.html',
  'forms/form144/144_issuer-CIK0000320193_AAPL_Luca-Maestri.xml',
  'forms/ownership/4_0000320193-22-000061_AAPL_Katherine-Adams.txt',
];

type Database = Awaited<ReturnType<typeof scratchDatabase>>;

/** What an ingest leaves: every table's row count (the runs themselves aside), each item's outcome, and digests of the filings and facts. */
async function snapshot(url: string) {
  const counts = await tableCounts(url);
  const items = await query(url, `SELECT "sourceKey", "kind", "status", "sha256", "records", "reason" FROM "IngestItem" ORDER BY "sourceKey"`);
  const [digests] = await query<{ facts: string; filings: string }>(
    url,
    `SELECT (SELECT md5(string_agg("factKey" || '=' || "value" || '@' || "accessionNumber", ',' ORDER BY "factKey")) FROM "Fact") AS facts,
            (SELECT md5(string_agg("accessionNumber" || ' ' || "form" || ' ' || coalesce("filedAt"::text, '') || ' ' || coalesce("documentSourceKey", ''), ',' ORDER BY "accessionNumber")) FROM "Filing") AS filings`,
  );
  const revenue = await query<{ value: string }>(
    url,
    `SELECT DISTINCT "value" FROM "Fact" WHERE "cik" = '0000320193' AND "tag" = 'RevenueFromContractWithCustomerExcludingAssessedTax' AND "accessionNumber" = '0000320193-24-000123' AND "periodStart" = '2023-10-01' AND "periodEnd" = '2024-09-28' AND NOT "hasDimensions"`,
  );
  return { counts, items, digests, revenue: revenue.map((r) => r.value) };
}

describe.runIf(hasCorpus)('kill -9 during an ingest, then the ingest again', { timeout: 120_000 }, () => {
  let source: string;
  let clean: Database;
  let killed: Database;

  beforeAll(async () => {
    buildOnce();
    source = await mkdtemp(path.join(tmpdir(), 'ids-apple-'));
    for (const file of appleFiles) {
      await mkdir(path.dirname(path.join(source, file)), { recursive: true });
      await symlink(path.join(corpusDir, file), path.join(source, file));
    }
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
