// kill -9 of `ids ingest --bulk` in the middle of the facts, then the same command again: the
// database ends as one uninterrupted run leaves it (every table's row count, each member's
// outcome, the facts themselves). Real processes (the compiled CLI) on PostgreSQL databases of
// the test's own, reading factor-8 archives that corpus:scale's code writes of a few companies.
// Under test/server/: it needs a database server, and runs whenever DATABASE_URL names one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferredNames } from '../../ingest/bulk/deferredIndexes.ts';
import { writeScaleCorpus, type ScaleSummary } from '../../scripts/scaleCorpus.ts';
import { corpusDir, hasCorpus } from '../corpus.ts';
import { eventually, scratchDatabase } from '../harness.ts';
import { postgres, query, tableCounts } from '../support/tableSnapshot.ts';
import { buildOnce, killAll, runCli, spawnCli, stop } from '../support/processes.ts';

type Database = Awaited<ReturnType<typeof scratchDatabase>>;

/** What a bulk ingest leaves: every table's row count (the runs themselves aside), each member's outcome, a digest of the facts. */
async function snapshot(url: string) {
  const counts = await tableCounts(postgres(url));
  const items = await query(url, `SELECT "sourceKey", "kind", "status", "sha256", "records" FROM "IngestItem" ORDER BY "sourceKey"`);
  const [digest] = await query<{ facts: string }>(url, `SELECT md5(string_agg("factKey" || '=' || "value" || '@' || "accessionNumber", ',' ORDER BY "factKey")) AS facts FROM "Fact"`);
  return { counts, items, digest, indexes: await loadedIndexes(url) };
}

/** The indexes and constraints of "Fact" and "Filing" as the database defines them: a first load builds their secondary indexes and foreign keys after the rows. */
async function loadedIndexes(url: string) {
  const indexes = await query<{ def: string }>(url, `SELECT indexdef AS def FROM pg_indexes WHERE tablename IN ('Fact', 'Filing') ORDER BY indexname`);
  const constraints = await query<{ def: string }>(
    url,
    `SELECT conname || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid IN ('"Fact"'::regclass, '"Filing"'::regclass) ORDER BY conname`,
  );
  return [...indexes, ...constraints].map((r) => r.def);
}

describe.runIf(hasCorpus)('kill -9 during a bulk ingest, then the bulk ingest again', { timeout: 300_000 }, () => {
  let work: string;
  let scale: ScaleSummary;
  let clean: Database;
  let killed: Database;

  beforeAll(async () => {
    buildOnce();
    work = await mkdtemp(path.join(tmpdir(), 'ids-bulk-killed-'));
    // Apple's and LPA's facts, Apple's and Imunon's filings, 8 copies of each: two writers load
    // companyfacts members side by side, so after the first commits many must still be to come for
    // the cut to land among the facts (at 2 copies, all of them were in before the kill arrived)
    scale = await writeScaleCorpus({ corpus: corpusDir, out: work, factor: 8, ciks: ['0000320193', '0000749647', '0001997711'] });
    [clean, killed] = await Promise.all([scratchDatabase(), scratchDatabase()]);
  }, 120_000);
  afterAll(async () => {
    await killAll();
    await Promise.all([clean?.drop(), killed?.drop()]);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ends with the same rows as an uninterrupted run', async () => {
    const members = scale.members.companyfacts + scale.members.submissions;
    const cleanRun = await runCli(clean.url!, 'ingest', '--bulk', work);
    expect(cleanRun.at(-1)).toMatch(new RegExp(`read ${members}, written ${members}, skipped 0, failed 0`));
    const expected = await snapshot(clean.url!);

    // cut once the filings are in and the facts are being written
    const child = spawnCli(killed.url!, 'ingest', '--bulk', work);
    await eventually('the first companyfacts member to commit', async () => Number((await query<{ n: string }>(killed.url!, `SELECT count(*) AS n FROM "IngestItem" WHERE "kind" = 'companyfacts'`))[0]!.n) >= 1, 120_000);
    await stop(child, 'SIGKILL');
    const [cut] = await query<{ finished: Date | null; items: string }>(killed.url!, `SELECT (SELECT "finishedAt" FROM "IngestRun") AS finished, (SELECT count(*) FROM "IngestItem") AS items`);
    expect(cut!.finished, 'the run was cut short').toBeNull();
    const kept = Number(cut!.items);
    expect(kept).toBeLessThan(members);
    const cutIndexes = await loadedIndexes(killed.url!);
    // an index's definition names it quoted, a constraint's begins with its name
    const named = (def: string, name: string) => def.includes(`"${name}"`) || def.startsWith(`${name} `);
    for (const name of deferredNames) expect(expected.indexes.filter((def) => named(def, name)), `${name}, as the migrations name it`).toHaveLength(1);
    expect(cutIndexes, 'the cut first load had deferred the secondary indexes and the foreign keys of both tables').toEqual(
      expected.indexes.filter((def) => !deferredNames.some((name) => named(def, name))),
    );

    const again = await runCli(killed.url!, 'ingest', '--bulk', work);
    expect(again.at(-1)).toMatch(new RegExp(`read ${members}, written ${members - kept}, skipped ${kept}, failed 0`));
    const after = await snapshot(killed.url!);
    expect(after.counts).toEqual(expected.counts);
    expect(after.items).toEqual(expected.items);
    expect(after.digest).toEqual(expected.digest);
    expect(after.indexes).toEqual(expected.indexes);
    expect(expected.indexes.join('\n')).toMatch(/"Fact_cik_tag_idx" ON public."Fact" USING btree \(cik, tag\)/);
    expect(expected.indexes).toContain('Fact_cik_fkey FOREIGN KEY (cik) REFERENCES "Entity"(cik) ON UPDATE CASCADE ON DELETE RESTRICT');
    expect(expected.indexes.join('\n')).toMatch(/"Filing_form_orderedAt_idx" ON public."Filing" USING btree \(form, "orderedAt"\)/);
    expect(expected.indexes).toContain('Filing_cik_fkey FOREIGN KEY (cik) REFERENCES "Entity"(cik) ON UPDATE CASCADE ON DELETE RESTRICT');
    expect(expected.counts.Fact).toBeGreaterThan(40_000);
    expect(expected.counts.StatementPeriod).toBeGreaterThan(0);
  });
});
