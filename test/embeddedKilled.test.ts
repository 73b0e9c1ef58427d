// kill -9 of the server while its startup ingest writes to the embedded database, then the same
// ingest by the CLI on the same state folder: the database opens again (PostgreSQL replays its
// WAL, which the embedded server writes without full-page images, prisma/adapter.ts) and ends as
// an uninterrupted run leaves it. Real processes (the compiled service and CLI), each on a state
// folder of its own, whatever database the rest of the suite runs on.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKeyFile } from '../server/bootstrap.ts';
import { hasCorpus } from './corpus.ts';
import { eventually } from './harness.ts';
import { appleFiles, appleSource, ingestSnapshot } from './support/appleIngest.ts';
import { withEmbedded } from './support/tableSnapshot.ts';
import { buildOnce, killAll, runCli, startServiceProcess, stop } from './support/processes.ts';

const read = appleFiles.length;

describe.runIf(hasCorpus)('kill -9 of a server ingesting into the embedded database', { timeout: 180_000 }, () => {
  let source: string;
  let clean: string;
  let killed: string;

  beforeAll(async () => {
    buildOnce();
    source = await appleSource();
    [clean, killed] = await Promise.all([mkdtemp(path.join(tmpdir(), 'ids-clean-')), mkdtemp(path.join(tmpdir(), 'ids-killed-'))]);
  }, 60_000);
  afterAll(async () => {
    await killAll();
    await Promise.all([source, clean, killed].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('opens again and, ingested again, holds what an uninterrupted run holds', async () => {
    const cleanLines = await runCli({ stateDir: clean }, 'ingest', '--source', source);
    expect(cleanLines.at(-1)).toMatch(new RegExp(`read ${read}, written ${read}, skipped 0, failed 0`));

    // The server ingests in steps beside its requests; it dies once an item has been written and
    // while the next (Apple's facts, written 500 at a time) is likely under way.
    const server = await startServiceProcess({ stateDir: killed }, { IDS_AUTO_INGEST: 'on', IDS_DATA_DIR: source, IDS_DEMO_ORG: 'on' });
    const key = (await readFile(demoKeyFile(killed), 'utf8')).trim();
    const status = async () => (await (await fetch(`${server.url}/v1/ingest/status`, { headers: { 'x-api-key': key } })).json()) as { state: string; running: { read: number }[] };
    await eventually('the first item of the startup ingest to be written', async () => ((await status()).running[0]?.read ?? 0) >= 1, 60_000);
    await stop(server.child, 'SIGKILL');

    const again = await runCli({ stateDir: killed }, 'ingest', '--source', source);
    // what the killed run wrote is kept (skipped as unchanged), the rest written now
    const [, total, written, skipped] = /read (\d+), written (\d+), skipped (\d+), failed 0 \(/.exec(again.at(-1)!) ?? [];
    expect(again.at(-1)).toContain('failed 0');
    expect(Number(total)).toBe(read);
    expect(Number(skipped)).toBeGreaterThanOrEqual(1);
    expect(Number(written)).toBeGreaterThanOrEqual(1);
    expect(await runCli({ stateDir: killed }, 'ingest:failures')).toEqual(['0 failed, 0 partly loaded']);

    const [expected, after] = [await withEmbedded(clean, ingestSnapshot), await withEmbedded(killed, ingestSnapshot)];
    expect(expected.revenue).toEqual(['391035000000']);
    expect(expected.counts.Fact).toBeGreaterThan(20_000);
    // the server's own rows (the demo organization, its key, its requests, their events) aside:
    // every table the ingest writes has the same rows, item by item, and the same public events
    const ingested = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([table]) => expected.counts[table]! > 0 && table !== 'Event'));
    expect(ingested(after.counts)).toEqual(ingested(expected.counts));
    expect(after.publicEvents).toEqual(expected.publicEvents);
    expect(after.items).toEqual(expected.items);
    expect(after.digests).toEqual(expected.digests);
    expect(after.revenue).toEqual(['391035000000']);
  });
});
