// Keeps the database current with EDGAR. For each business day since the last one synced, it reads
// the SEC's daily form index (every filing accepted that day) and, for each company in it that the
// database holds, that company's submissions (so the day's filings arrive with their documents'
// names and the company's tickers), its companyfacts, and the primary documents of the day's
// filings that have a parser; then the index itself, which adds the day's filings of every other
// company. The loads are the ingest's own (runIngest), so new filings announce their events now and
// monitors, webhooks and streams fire for them.
//
// A synced day is marked by an IngestItem `sec-sync:<date>`; the next sync starts the day after
// the newest mark. EDGAR publishes a day's index in the evening: a missing index of the last two
// days is "not yet published" and ends the sync (the next one asks again); one older than that
// means the SEC published none (a federal holiday) and the day is marked as such. Every request is
// the SEC client's: declared User-Agent, at most 10 a second, backoff on 403/429/5xx.
import pg from 'pg';
import { rawConnectionOf, type PrismaClient } from '../prisma/db.ts';
import type { Logger } from '../core/logger.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import { parseEdgarIndex } from './parsers/edgar/indexFiles.ts';
import { documentKindOfForm } from './classify.ts';
import { runIngest, type IngestSummary, type Progress } from './run.ts';
import { indexPaths, secClient, textItem, type SecClientOptions } from './sources/secHttp.ts';
import type { Source } from './sources/types.ts';

/** How many days back a sync reaches by default; a bulk load announces what it adds within the same reach. */
export const syncReachDays = 31;

export interface SyncOptions extends Omit<SecClientOptions, 'isDone'> {
  /** the day to sync up to, YYYY-MM-DD (UTC); default today */
  today?: string;
  /** the first day to read, instead of the day after the last one synced */
  since?: string;
  /** `held` (default): refresh the companies the database holds; `all`: every company in the index */
  scope?: 'held' | 'all';
  /** how far back a sync reaches at most (default syncReachDays); an older gap is the nightly archives' job */
  maxDays?: number;
}

export type DayOutcome = 'synced' | 'no_index' | 'not_yet_published' | 'failed';

export interface SyncSummary {
  /** another process on this database was syncing, so this one did nothing */
  busy?: true;
  days: { date: string; outcome: DayOutcome; filings: number; companies: number; ingest?: IngestSummary; reason?: string }[];
  /** the newest day marked synced (or without an index) after this sync; null if none ever was */
  syncedThrough: string | null;
}

const markerPrefix = 'sec-sync:';
const markerKind = 'sec_sync_day';
/** A day's index not there this many days later was never published (a holiday). */
const publishedWithinDays = 3;
const dayMs = 86_400_000;

export async function runSync(deps: { prisma: PrismaClient; bus: EventBus; logger: Logger }, options: SyncOptions, progress?: () => Progress): Promise<SyncSummary> {
  const ran = await alone(deps.prisma, () => syncDays(deps, options, progress));
  return ran ?? { busy: true, days: [], syncedThrough: await newestMarker(deps.prisma) };
}

/**
 * Runs `work` unless another process on this PostgreSQL database is syncing (a session advisory
 * lock on a connection of its own, released if the process dies); null if one is. The embedded
 * database has one owning process, so there it just runs.
 */
async function alone<T>(prisma: PrismaClient, work: () => Promise<T>): Promise<T | null> {
  const raw = rawConnectionOf(prisma);
  if (raw.kind !== 'postgres') return work();
  const client = new pg.Client({ connectionString: raw.url });
  await client.connect();
  try {
    const [{ locked }] = (await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext('ids:sec-sync')) AS locked")).rows as [{ locked: boolean }];
    return locked ? await work() : null;
  } finally {
    await client.end();
  }
}

async function syncDays(deps: { prisma: PrismaClient; bus: EventBus; logger: Logger }, options: SyncOptions, progress?: () => Progress): Promise<SyncSummary> {
  const { prisma, logger } = deps;
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  assertDate(today, 'today');
  if (options.since) assertDate(options.since, 'since');
  const client = secClient({
    ...options,
    // The day's submissions and companyfacts have changed by definition; a document is fetched once.
    isDone: async (key) => key.startsWith('/Archives/') && (await prisma.ingestItem.findUnique({ where: { sourceKey: key }, select: { status: true } }))?.status === 'ingested',
  });

  const earliest = addDays(today, -(options.maxDays ?? syncReachDays));
  let start = options.since ?? (await firstUnsyncedDay(prisma)) ?? today;
  if (start < earliest) {
    logger.warn({ from: start, earliest }, 'sec sync: the database is further behind than a sync reaches; load the nightly archives (ingest --bulk) for the older gap');
    start = earliest;
  }

  const summary: SyncSummary = { days: [], syncedThrough: null };
  for (const date of businessDays(start, today)) {
    const indexPath = indexPaths([date])[0]!;
    const got = await client.get(client.base.www + indexPath);
    if (!got.ok) {
      if (got.status === 404 && daysBetween(date, today) >= publishedWithinDays) {
        await mark(prisma, date, 'skipped', 'the SEC published no daily index for this day (a holiday)', 0);
        summary.days.push({ date, outcome: 'no_index', filings: 0, companies: 0 });
        continue;
      }
      const outcome = got.status === 404 ? 'not_yet_published' : 'failed';
      if (outcome === 'failed') await prisma.ingestItem.upsert({ where: { sourceKey: indexPath }, create: { sourceKey: indexPath, kind: 'edgar_index', sha256: '', status: 'failed', reason: got.error.message, runId: 'sec-sync' }, update: { status: 'failed', reason: got.error.message } });
      summary.days.push({ date, outcome, filings: 0, companies: 0, reason: got.error.message });
      logger.info({ date, status: got.status }, outcome === 'failed' ? 'sec sync: the daily index could not be fetched; the next sync tries again' : 'sec sync: the daily index is not published yet');
      break;
    }

    let rows;
    try {
      rows = parseEdgarIndex(got.text, indexPath.slice(indexPath.lastIndexOf('/') + 1)).rows;
    } catch (error) {
      summary.days.push({ date, outcome: 'failed', filings: 0, companies: 0, reason: (error as Error).message });
      break;
    }
    const accessionsOf = new Map<string, Set<string>>();
    for (const row of rows) if (row.accessionNumber) accessionsOf.set(row.cik, (accessionsOf.get(row.cik) ?? new Set()).add(row.accessionNumber));
    const companies = options.scope === 'all' ? [...accessionsOf.keys()] : await heldCompanies(prisma, [...accessionsOf.keys()]);

    const source: Source = {
      describe: () => `SEC sync ${date} (${client.base.www})`,
      inLoadOrder: true,
      size: 1 + 2 * companies.length,
      async *items() {
        for (const cik of companies) {
          const ofDay = accessionsOf.get(cik)!;
          yield* client.company(cik, (filings) => filings.filter((f) => ofDay.has(f.accessionNumber) && f.primaryDocument && documentKindOfForm(f.form) !== 'unknown'), { pages: false });
        }
        yield textItem(indexPath, got.text);
      },
    };
    const ingest = await runIngest(deps, source, progress?.());
    await mark(prisma, date, 'ingested', ingest.failed ? `${ingest.failed} items failed (ingest:failures lists them)` : null, ingest.records);
    summary.days.push({ date, outcome: 'synced', filings: rows.length, companies: companies.length, ingest });
  }
  summary.syncedThrough = (await newestMarker(prisma)) ?? null;
  return summary;
}

export function syncSummaryLine(s: SyncSummary): string {
  if (s.busy) return `sync: another process is syncing this database; synced through ${s.syncedThrough ?? 'no day yet'}`;
  const days = s.days.map((d) => `${d.date} ${d.outcome.replace(/_/g, ' ')}${d.outcome === 'synced' ? ` (${d.filings} filings, ${d.companies} companies refreshed, ${d.ingest!.records} records${d.ingest!.failed ? `, ${d.ingest!.failed} failed` : ''})` : ''}`);
  return `sync: ${days.length ? days.join('; ') : 'nothing to do'}; synced through ${s.syncedThrough ?? 'no day yet'}`;
}

/** The companies of the index the database holds a submissions file of. */
async function heldCompanies(prisma: PrismaClient, ciks: string[]): Promise<string[]> {
  const held = await prisma.entity.findMany({ where: { cik: { in: ciks }, hasSubmissions: true }, select: { cik: true } });
  const set = new Set(held.map((e) => e.cik));
  return ciks.filter((cik) => set.has(cik));
}

async function newestMarker(prisma: PrismaClient): Promise<string | null> {
  const newest = await prisma.ingestItem.findFirst({ where: { kind: markerKind }, orderBy: { sourceKey: 'desc' }, select: { sourceKey: true } });
  return newest ? newest.sourceKey.slice(markerPrefix.length) : null;
}

/** The day after the newest synced day, else the day after the newest filing held. */
async function firstUnsyncedDay(prisma: PrismaClient): Promise<string | null> {
  const marked = await newestMarker(prisma);
  if (marked) return addDays(marked, 1);
  const newest = await prisma.filing.findFirst({ where: { filedAt: { not: null } }, orderBy: { filedAt: 'desc' }, select: { filedAt: true } });
  return newest?.filedAt ? addDays(newest.filedAt.toISOString().slice(0, 10), 1) : null;
}

async function mark(prisma: PrismaClient, date: string, status: 'ingested' | 'skipped', reason: string | null, records: number): Promise<void> {
  const sourceKey = markerPrefix + date;
  const row = { kind: markerKind, sha256: '', status, reason, records, runId: 'sec-sync' };
  await prisma.ingestItem.upsert({ where: { sourceKey }, create: { sourceKey, ...row }, update: row });
}

function assertDate(value: string, name: string): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new Error(`${name} must be a date, YYYY-MM-DD, not ${JSON.stringify(value)}`);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);
}

/** Monday to Friday from `from` to `to`, inclusive: EDGAR publishes no index for weekends. */
export function businessDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(day);
  }
  return days;
}
