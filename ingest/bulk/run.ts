// A bulk ingest of the SEC's nightly archives (submissions.zip, companyfacts.zip) in a folder.
// Each load is one transaction: a companyfacts member, or a batch of submissions members (most
// are small; a batch is written set-wise, in a handful of statements). Its rows, copied through a
// staging table, and the IngestItem done-marks of its members commit together, so a run killed at
// any point is resumed by running it again (the members done are skipped as unchanged, by name and
// digest). The next loads are read and parsed while one is written (on PostgreSQL, on prepare
// threads: ./preparePool.ts). On PostgreSQL two connections
// write companyfacts members side by side (a company's facts conflict with no other's; COPY keeps
// one server process busy); submissions, whose filings can be shared by co-registrants, are
// written one load at a time. Derived data is built after the load (./derived.ts).
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PrismaClient } from '../../prisma/db.ts';
import { rawConnectionOf } from '../../prisma/db.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import type { EventBus } from '../../subscriptions/bus.ts';
import { publishAll } from '../../subscriptions/events.ts';
import { dataChangedNotice } from '../../derived/dataCache.ts';
import { openArchive, type Archive, type ArchiveMember } from './archive.ts';
import { openBulkConnection, type BulkConnection } from './connection.ts';
import { companyFactsMember } from './companyFacts.ts';
import { buildDerived, pendingStatus, type DerivedSummary } from './derived.ts';
import { archiveName, bulkKinds, memberKey, type BulkKind } from './keys.ts';
import { bulkAnnounceFrom, type LoadContext, type PendingDerived, type PreparedMember } from './member.ts';
import type { BulkProgress } from './progress.ts';
import { createStagingTables } from './staging.ts';
import { deferIndexesOfEmptyTables, restoreDeferredIndexes, type DeferredTable } from './deferredIndexes.ts';
import { runRowWriter } from '../runRow.ts';
import { loadSubmissions, submissionsMember, type LoadedSubmissions, type PreparedSubmissions } from './submissions.ts';
import { firstLine } from './prepare.ts';
import { inlinePreparer, threadPreparer, type MemberPreparer } from './preparePool.ts';

export interface BulkSummary {
  runId: string;
  folder: string;
  /** archive members read, and what became of them */
  read: number;
  written: number;
  skipped: number;
  failed: number;
  /** IngestItem.records of the members written */
  records: number;
  /** fact rows and filing rows written */
  factRows: number;
  filingRows: number;
  loadSeconds: number;
  /** of which building the indexes a first load deferred (0 when none was) */
  indexSeconds: number;
  /** of which reading, parsing and writing each archive's members */
  archiveSeconds: Record<BulkKind, number>;
  derived: DerivedSummary;
  seconds: number;
}

interface Deps {
  prisma: PrismaClient;
  bus: EventBus;
  logger: Logger;
}

type Prepared =
  | { key: string; kind: BulkKind; size: number; sha256: string; outcome: 'skipped' }
  | { key: string; kind: BulkKind; size: number; sha256: string; outcome: 'failed'; reason: string }
  | { key: string; kind: 'companyfacts'; size: number; sha256: string; outcome: 'prepared'; member: PreparedMember }
  | PreparedSubmissionsItem;

type PreparedSubmissionsItem = { key: string; kind: 'submissions'; size: number; sha256: string; outcome: 'prepared'; member: PreparedSubmissions };

export async function runBulkIngest(deps: Deps, folder: string, progress?: BulkProgress): Promise<BulkSummary> {
  const { prisma, bus, logger } = deps;
  const started = performance.now();
  const base = path.resolve(folder);
  const present = bulkKinds.filter((kind) => existsSync(path.join(base, archiveName(kind))));
  if (!present.length) throw new Error(`no ${bulkKinds.map(archiveName).join(' or ')} in ${base}`);

  const run = await prisma.ingestRun.create({ data: { id: newId('run'), source: `bulk ${base}` } });
  const summary: BulkSummary = { runId: run.id, folder: base, read: 0, written: 0, skipped: 0, failed: 0, records: 0, factRows: 0, filingRows: 0, loadSeconds: 0, indexSeconds: 0, archiveSeconds: { submissions: 0, companyfacts: 0 }, derived: { companies: 0, facts: 0, signals: 0, seconds: 0 }, seconds: 0 };
  const archives: { kind: BulkKind; archive: Archive }[] = [];
  const runRow = runRowWriter(prisma, run.id);
  let total = 0;
  const counts = () => ({ total, read: summary.read, written: summary.written, skipped: summary.skipped, failed: summary.failed, records: summary.records });
  const raw = rawConnectionOf(prisma);
  const connection = await openBulkConnection(raw);
  const writers = [connection];
  // On PostgreSQL the members are prepared on threads of their own; the embedded database's
  // one connection is in this thread, and keeps it busy enough.
  const preparer = connection.kind === 'postgres' ? threadPreparer(prepareThreads) : inlinePreparer;
  try {
    if (connection.kind === 'postgres') writers.push(await openBulkConnection(raw));
    for (const kind of present) archives.push({ kind, archive: await openArchive(path.join(base, archiveName(kind))) });
    const members = archives.flatMap(({ archive }) => archive.members);
    progress?.update({ files: members.length, bytes: members.reduce((sum, m) => sum + m.size, 0) });
    total = members.length;
    for (const writer of writers) await createStagingTables(writer);
    // indexes (and foreign keys) a killed first load left unbuilt are built before anything is written by company
    await restoreDeferredIndexes(connection);
    const tablesWritten: DeferredTable[] = present.map((kind) => (kind === 'companyfacts' ? 'Fact' : 'Filing'));
    const deferred = await deferIndexesOfEmptyTables(connection, tablesWritten);
    const context: LoadContext = {
      firstFactLoad: deferred.includes('Fact'),
      conceptsHeld: new Set(),
      announceFrom: bulkAnnounceFrom(),
    };
    const previous = await previousItems(prisma);

    let bytesDone = 0;
    let anyWritten = false;
    let lastDone = performance.now();
    const inFlight = byteBudget(membersInFlightBytes);
    const batches = lookahead(prepareAll(archives, previous, inFlight, preparer));
    const oneAtATime = serialLane();
    const counted = (item: Prepared, loaded: { records: number; rowsWritten: number }) => {
      anyWritten ||= loaded.records > 0;
      summary.written++;
      summary.records += loaded.records;
      if (item.kind === 'companyfacts') summary.factRows += loaded.rowsWritten;
      else summary.filingRows += loaded.rowsWritten;
    };
    const mark = (item: Prepared & { outcome: 'prepared' }, loaded: { records: number; derived: PendingDerived }): ItemMark => ({
      sourceKey: item.key, kind: item.kind, sha256: item.sha256, status: loaded.derived ? pendingStatus(loaded.derived) : 'ingested', records: loaded.records, runId: run.id,
    });
    const write = async (writer: BulkConnection, item: Prepared) => {
      if (item.outcome === 'skipped') summary.skipped++;
      else if (item.outcome === 'failed') {
        await recordFailure(writer, run.id, item.key, item.kind, item.sha256, item.reason, logger);
        summary.failed++;
      } else {
        try {
          const loaded = await writer.transaction(async (session) => {
            const result = await item.member.load(session, context);
            await markItems(session, [mark(item, result)]);
            return result;
          });
          for (const concept of loaded.concepts ?? []) context.conceptsHeld.add(concept);
          // Its events reach live subscribers once the member has committed. Cached reads catch up
          // within their time to live, and are dropped on every instance when the run ends (data.changed).
          await publishAll(bus, loaded.events);
          counted(item, loaded);
        } catch (error) {
          await recordFailure(writer, run.id, item.key, item.kind, item.sha256, firstLine(error), logger);
          summary.failed++;
        }
      }
    };
    // Submissions members written together; should that fail, each is written on its own, so
    // that only the member at fault is recorded as failed.
    const writeTogether = async (writer: BulkConnection, batch: PreparedSubmissionsItem[]) => {
      let loaded: LoadedSubmissions;
      try {
        loaded = await writer.transaction(async (session) => {
          const result = await loadSubmissions(session, batch.map((item) => item.member), context.announceFrom);
          await markItems(session, batch.map((item, i) => mark(item, result.members[i]!)));
          return result;
        });
      } catch (error) {
        logger.warn({ members: batch.length, reason: firstLine(error) }, 'bulk ingest: members written together failed; writing each on its own');
        for (const item of batch) await write(writer, item);
        return;
      }
      await publishAll(bus, loaded.events);
      batch.forEach((item, i) => counted(item, loaded.members[i]!));
    };
    let stopped = false;
    await Promise.all(
      writers.map(async (writer) => {
        try {
          for (let next = await batches.next(); !next.done && !stopped; next = await batches.next()) {
            const batch = next.value;
            summary.read += batch.length;
            try {
              if (batch.length > 1) await oneAtATime(() => writeTogether(writer, batch as PreparedSubmissionsItem[]));
              else await (batch[0]!.kind === 'companyfacts' ? write(writer, batch[0]!) : oneAtATime(() => write(writer, batch[0]!)));
            } finally {
              for (const item of batch) inFlight.release(item.size);
            }
            for (const item of batch) bytesDone += item.size;
            summary.archiveSeconds[batch[0]!.kind] += (performance.now() - lastDone) / 1000;
            lastDone = performance.now();
            progress?.update({ filesDone: summary.read, bytesDone, rows: summary.factRows + summary.filingRows });
            await runRow.progress(counts());
          }
        } catch (error) {
          stopped = true;
          throw error;
        }
      }),
    );
    await preparer.close(); // its threads' memory is the derived build's
    if (deferred.length) {
      progress?.update({ phase: 'indexes' });
      const indexStarted = performance.now();
      await restoreDeferredIndexes(connection);
      summary.indexSeconds = (performance.now() - indexStarted) / 1000;
    }
    // The planner's statistics of the tables just filled: without them it plans the derived build's
    // reads and every read after as for the table they had before (at 68 million facts, a company's
    // concept summary was read by a bitmap scan sized for 1% of the table).
    if (anyWritten) {
      await maintain(connection, 'ANALYZE', loadedTables);
      await maintain(connection, 'VACUUM', vacuumedTables);
    }
    summary.loadSeconds = (performance.now() - started) / 1000;

    progress?.update({ phase: 'derived' });
    summary.derived = await buildDerived(prisma, bus, context.announceFrom);
    if (summary.derived.companies) await maintain(connection, 'ANALYZE', derivedTables);
    if (anyWritten || summary.derived.companies) await publishAll(bus, [dataChangedNotice()]);
  } finally {
    progress?.finish();
    for (const { archive } of archives) archive.close();
    for (const writer of writers) await writer.close();
    await preparer.close(); // again, should the load have failed before its own close
  }
  summary.seconds = (performance.now() - started) / 1000;
  await runRow.finish(counts());
  return summary;
}

/** What earlier runs (bulk or item by item) made of the files these archives may hold. */
async function previousItems(prisma: PrismaClient): Promise<Map<string, { sha256: string; status: string }>> {
  const rows = await prisma.ingestItem.findMany({ where: { kind: { in: [...bulkKinds] } }, select: { sourceKey: true, sha256: true, status: true } });
  return new Map(rows.map((r) => [r.sourceKey, r]));
}

/** As many prepare threads as writers, when there are cores for them. */
const prepareThreads = Math.min(2, availableParallelism());

/** The tables a load writes, and those the derived build after it writes. */
const loadedTables = ['Entity', 'Filing', 'FilingEvent', 'Fact', 'Concept'];
const derivedTables = ['CompanyConcept', 'StatementProfile', 'StatementPeriod', 'SegmentPeriod', 'DilutionRecord', 'DilutionProfile'];

/**
 * Tables a load leaves slower to read until they are vacuumed: a fact's cited filing and its
 * primary document are read from an index alone only on pages VACUUM has marked all-visible (a
 * table just filled has none), and a ticker is looked up in "Entity"'s GIN index, whose entries
 * written since the last VACUUM sit in a list each lookup reads whole (120 pages, 4 ms, after a
 * load of 16,000 companies).
 */
const vacuumedTables = ['Filing', 'Entity'];

/** One ANALYZE or VACUUM of these tables. ANALYZE samples a table (30,000 rows by default), whatever its size: seconds at 68 million facts. */
async function maintain(connection: BulkConnection, command: 'ANALYZE' | 'VACUUM', tables: string[]): Promise<void> {
  await connection.query(`${command} ${tables.map((table) => `"${table}"`).join(', ')}`);
}

/**
 * Every member read, digested and parsed, in load order, in batches: consecutive submissions
 * members go together, as many as make a load of `togetherFilings` filings or `togetherBytes` of
 * member bytes; every other member goes alone. An unchanged member is skipped unparsed. Members
 * are read in order and prepared up to the preparer's concurrency at a time, and taken in order.
 * A member is read once the members read and not yet written leave room for it in `inFlight`;
 * when they might not, those prepared and the batch being gathered are let go to the writers first.
 */
async function* prepareAll(archives: { kind: BulkKind; archive: Archive }[], previous: Map<string, { sha256: string; status: string }>, inFlight: ByteBudget, preparer: MemberPreparer): AsyncGenerator<Prepared[]> {
  let batch: PreparedSubmissionsItem[] = [];
  let filings = 0;
  let bytes = 0;
  const letGo = () => {
    const gathered = batch;
    batch = [];
    filings = bytes = 0;
    return gathered;
  };
  function* gather(item: Prepared): Generator<Prepared[]> {
    const together = item.kind === 'submissions' && item.outcome === 'prepared';
    if (batch.length && (!together || bytes + item.size > togetherBytes)) yield letGo();
    if (!together) {
      yield [item];
      return;
    }
    batch.push(item);
    filings += item.member.rowCount;
    bytes += item.size;
    if (filings >= togetherFilings) yield letGo();
  }
  const preparing: Promise<Prepared>[] = [];
  for (const { kind, archive } of archives) {
    for await (const entry of archive.each()) {
      if (!inFlight.fits(entry.size)) {
        while (preparing.length) yield* gather(await preparing.shift()!);
        if (batch.length) yield letGo();
      }
      await inFlight.acquire(entry.size);
      preparing.push(prepareOne(kind, entry, previous, preparer));
      while (preparing.length >= preparer.concurrency) yield* gather(await preparing.shift()!);
    }
  }
  while (preparing.length) yield* gather(await preparing.shift()!);
  if (batch.length) yield letGo();
}

/**
 * Large enough that a load's statements cost little per filing; small enough to commit often and to
 * keep a batch being written and the next, parsed, within the ingest's memory (twice these figures
 * peaked about 190 MiB higher at factor 10).
 */
const togetherFilings = 10_000;
const togetherBytes = 4 * 2 ** 20;

async function prepareOne(kind: BulkKind, entry: ArchiveMember, previous: Map<string, { sha256: string; status: string }>, preparer: MemberPreparer): Promise<Prepared> {
  const key = memberKey(kind, entry.name);
  let bytes: Buffer;
  try {
    bytes = await entry.read();
  } catch (error) {
    return { key, kind, size: entry.size, sha256: '', outcome: 'failed', reason: `could not read: ${firstLine(error)}` };
  }
  const before = previous.get(key);
  const prepared = await preparer.prepare({ kind, name: entry.name, key, bytes, heldSha256: before && before.status !== 'failed' ? before.sha256 : null });
  const item = { key, size: entry.size, sha256: prepared.sha256 };
  if (prepared.outcome === 'skipped') return { ...item, kind, outcome: 'skipped' };
  if (prepared.outcome === 'failed') return { ...item, kind, outcome: 'failed', reason: prepared.reason };
  if (prepared.kind === 'companyfacts') return { ...item, kind: 'companyfacts', outcome: 'prepared', member: companyFactsMember(prepared.rows) };
  return { ...item, kind: 'submissions', outcome: 'prepared', member: submissionsMember(prepared.rows) };
}

/** The next item is being produced (read, inflated, parsed) while the caller works on this one. */
async function* lookahead<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let next = source.next();
  for (;;) {
    const current = await next;
    if (current.done) return;
    next = source.next();
    yield current.value;
  }
}

/**
 * Member bytes (uncompressed JSON) read and not yet written, at most: a parsed member takes several
 * times its size in memory, and two are written while the next is parsed. EDGAR's members are
 * mostly under a megabyte, a few of its largest companies' tens of megabytes; those wait for room.
 */
const membersInFlightBytes = 32 * 2 ** 20;

interface ByteBudget {
  /** whether `bytes` would be admitted now */
  fits(bytes: number): boolean;
  acquire(bytes: number): Promise<void>;
  release(bytes: number): void;
}

/** Admits work while the bytes admitted and not released stay within `limit`; work larger than it is admitted alone. */
function byteBudget(limit: number): ByteBudget {
  let used = 0;
  const waiting: { bytes: number; admit: () => void }[] = [];
  const fits = (bytes: number) => used === 0 || used + bytes <= limit;
  const admitWaiting = () => {
    while (waiting.length && fits(waiting[0]!.bytes)) {
      const next = waiting.shift()!;
      used += next.bytes;
      next.admit();
    }
  };
  return {
    fits: (bytes) => !waiting.length && fits(bytes),
    acquire(bytes) {
      return new Promise((admit) => {
        waiting.push({ bytes, admit });
        admitWaiting();
      });
    },
    release(bytes) {
      used -= bytes;
      admitWaiting();
    },
  };
}

/** Runs the work it is given one at a time, in the order given. */
function serialLane(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const result = tail.then(work);
    tail = result.catch(() => {});
    return result;
  };
}

interface ItemMark {
  sourceKey: string;
  kind: string;
  sha256: string;
  status: string;
  records: number;
  runId: string;
  reason?: string | null;
}

async function markItems(session: Pick<BulkConnection, 'query'>, marks: ItemMark[]): Promise<void> {
  const column = <K extends keyof ItemMark>(key: K) => marks.map((m) => m[key] ?? null);
  await session.query(
    `INSERT INTO "IngestItem" ("sourceKey", "kind", "sha256", "status", "reason", "records", "runId", "updatedAt")
     SELECT *, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[])
     ON CONFLICT ("sourceKey") DO UPDATE SET "kind" = EXCLUDED."kind", "sha256" = EXCLUDED."sha256", "status" = EXCLUDED."status", "reason" = EXCLUDED."reason",
       "records" = EXCLUDED."records", "runId" = EXCLUDED."runId", "updatedAt" = EXCLUDED."updatedAt"`,
    [column('sourceKey'), column('kind'), column('sha256'), column('status'), column('reason'), column('records'), column('runId')],
  );
}

/** A member that fails is recorded with its reason (ingest:failures lists it) and the run goes on. */
async function recordFailure(connection: BulkConnection, runId: string, sourceKey: string, kind: string, sha256: string, reason: string, logger: Logger): Promise<void> {
  logger.warn({ key: sourceKey, kind, reason }, 'bulk ingest member failed');
  await markItems(connection, [{ sourceKey, kind, sha256, status: 'failed', reason: reason.slice(0, 500), records: 0, runId }]);
}


export function bulkSummaryLine(s: BulkSummary): string {
  const rate = s.archiveSeconds.companyfacts > 0 ? Math.round(s.factRows / s.archiveSeconds.companyfacts) : 0;
  return (
    `bulk ingest ${s.runId}: read ${s.read}, written ${s.written}, skipped ${s.skipped}, failed ${s.failed} (${s.records} records: ${s.factRows} facts, ${s.filingRows} filings) ` +
    `loaded in ${s.loadSeconds.toFixed(1)} s (indexes ${s.indexSeconds.toFixed(1)} s, companyfacts ${s.archiveSeconds.companyfacts.toFixed(1)} s: ${rate} facts/s), derived data of ${s.derived.companies} companies in ${s.derived.seconds.toFixed(1)} s (${s.derived.signals} signals announced), ${s.seconds.toFixed(1)} s in all from ${s.folder}`
  );
}
