// Runs an ingest: every item of a source, in load order, each in its own transaction with its
// IngestItem row (beside a server's requests, a large one in steps, that row written after the
// last). An unchanged item (same digest, ingested before) is skipped; an item that fails is
// recorded with its reason and the run goes on.
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../prisma/db.ts';
import { newId } from '../core/ids.ts';
import type { Logger } from '../core/logger.ts';
import { eventLoopTurn, type RequestActivity } from '../core/requestActivity.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import { publishAll } from '../subscriptions/events.ts';
import { dataChangedNotice } from '../derived/dataCache.ts';
import { classify, documentKindOfForm, loadOrder, namedInPath, type ItemKind } from './classify.ts';
import { handlers } from './registry.ts';
import { documentMissing } from './load/documents.ts';
import { runRowWriter } from './runRow.ts';
import { inlineParser, threadParser, type ItemParser } from './parsers.ts';
import { NotForThisIngest, withinTransaction, type LoadOutcome, type Step, type Tx } from './handlers.ts';
import { announceSignals } from './load/signals.ts';
import type { Source, SourceItem } from './sources/types.ts';

export interface IngestSummary {
  runId: string;
  source: string;
  read: number;
  written: number;
  /** written, but with parts left out (see ingest:failures) */
  partial: number;
  skipped: number;
  failed: number;
  records: number;
  seconds: number;
}

export interface Progress {
  /** before each item, and once more when the last is through (done = total); records written so far */
  item(done: number, total: number, key: string, records?: number): void;
  /** an item is through: how long it took and how it ended */
  itemDone?(key: string, kind: string, ms: number, status: 'ingested' | 'partial' | 'skipped' | 'failed'): void;
  finish(): void;
}

/** A large document (a 4 MB companyfacts) may take a while to write on the embedded database. */
const itemTransactionMs = 300_000;

/** The longest a transaction of an item waits for the requests being answered (steady traffic must not stall the ingest). */
const requestsFirstMs = 200;

export interface IngestDeps {
  prisma: PrismaClient;
  bus: EventBus;
  logger: Logger;
  /**
   * The requests of a server sharing the ingest's one database connection (the embedded
   * database): each item waits for them before it takes the connection, so that a request
   * reading in several statements is not held behind a whole item between two of them.
   */
  activity?: RequestActivity;
}

export async function runIngest(deps: IngestDeps, source: Source, progress?: Progress): Promise<IngestSummary> {
  const { prisma } = deps;
  const started = Date.now();
  const run = await prisma.ingestRun.create({ data: { id: newId('run'), source: source.describe() } });
  const summary: IngestSummary = { runId: run.id, source: source.describe(), read: 0, written: 0, partial: 0, skipped: 0, failed: 0, records: 0, seconds: 0 };

  const listed = source.inLoadOrder ? null : await inLoadOrder(source);
  const total = () => listed?.length ?? Math.max(source.size ?? 0, summary.read);

  const runRow = runRowWriter(prisma, run.id);
  // sharing the event loop with a server's requests, the items are parsed on a thread of their own
  const parser = deps.activity ? threadParser() : inlineParser;
  const counts = () => ({ total: total(), read: summary.read, written: summary.written, skipped: summary.skipped, failed: summary.failed, records: summary.records });
  try {
    for await (const item of listed ?? source.items()) {
      progress?.item(summary.read, total(), item.key, summary.records);
      await runRow.progress(counts());
      const itemStarted = performance.now();
      const { kind, form } = await kindOf(prisma, item.key);
      const outcome = await ingestItem(deps, parser, run.id, item, kind, form);
      summary.read++;
      if (outcome.status === 'ingested' || outcome.status === 'partial') {
        summary.written++;
        summary.records += outcome.records;
        if (outcome.status === 'partial') summary.partial++;
      } else summary[outcome.status]++;
      progress?.itemDone?.(item.key, kind, performance.now() - itemStarted, outcome.status);
    }
  } finally {
    await parser.close();
  }
  progress?.item(summary.read, summary.read, '', summary.records);
  progress?.finish();
  summary.seconds = (Date.now() - started) / 1000;
  await runRow.finish(counts());
  return summary;
}

/** Every item of the source, listed first and sorted into load order. */
async function inLoadOrder(source: Source): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  const rank = (item: SourceItem) => loadOrder.indexOf(classify(item.key));
  return items.sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
}

type ItemOutcome = { status: 'ingested' | 'partial'; records: number } | { status: 'skipped' | 'failed' };

/** One item: read, skip if unchanged, parse and prepare, and load with its IngestItem row. */
async function ingestItem(deps: IngestDeps, parser: ItemParser, runId: string, item: SourceItem, kind: ItemKind, form: string | null): Promise<ItemOutcome> {
  const { prisma, bus, logger, activity } = deps;
  const record = async (status: 'failed' | 'skipped', sha256: string, reason: string) => {
    await prisma.ingestItem.upsert({
      where: { sourceKey: item.key },
      create: { sourceKey: item.key, kind, sha256, status, reason, runId },
      update: { kind, sha256, status, reason, runId, records: 0 },
    });
  };

  let text: string;
  try {
    text = await item.read();
  } catch (error) {
    await record('failed', '', `could not read: ${(error as Error).message}`);
    return { status: 'failed' };
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const previous = await prisma.ingestItem.findUnique({ where: { sourceKey: item.key } });
  if (previous && previous.sha256 === sha256 && previous.status !== 'failed' && !(await documentMissing(prisma, kind, item.key))) return { status: 'skipped' };

  const kindHandler = handlers[kind];
  try {
    if (!kindHandler) throw new Error(kind === 'unknown' ? 'unknown kind of file: not a layout or SEC path this ingest knows' : `no parser for ${kind}`);
    const input = { key: item.key, name: item.name, text, kind, form };
    const parsed = await parser.parse(input);
    const prepared = kindHandler.prepare ? await kindHandler.prepare(prisma, parsed, input) : parsed;
    // the transactions of the item's earlier steps: the events they wrote are the signals' evidence
    const steps: bigint[] = [];
    const step: Step = (write) =>
      inTransaction(prisma, activity, async (tx) => {
        const result = await write(tx);
        const [{ txid }] = await tx.$queryRaw<{ txid: bigint | null }[]>`SELECT (pg_current_xact_id_if_assigned())::text::bigint AS "txid"`;
        if (txid !== null) steps.push(txid);
        return result;
      });
    const finish = async (tx: Tx, loadedRows: LoadOutcome) => {
      const result = { ...loadedRows, events: [...loadedRows.events, ...(await announceSignals(tx, steps))] };
      // 'partial': the item went in, but some of it (listed in reason) was left out.
      const status = result.warnings?.length ? 'partial' : 'ingested';
      const reason = result.warnings?.length ? result.warnings.join('; ').slice(0, 2000) : null;
      await tx.ingestItem.upsert({
        where: { sourceKey: item.key },
        create: { sourceKey: item.key, kind, sha256, status, reason, records: result.records, runId },
        update: { kind, sha256, status, reason, records: result.records, runId },
      });
      return result;
    };
    // Beside a server's requests, a large item's steps are transactions of their own; otherwise
    // (a command of its own, PostgreSQL's ingest thread) the whole item is one, with fewer commits.
    const loaded =
      activity && kindHandler.loadInSteps
        ? await kindHandler.loadInSteps(step, prepared, input).then((rows) => inTransaction(prisma, activity, (tx) => finish(tx, rows)))
        : await inTransaction(prisma, activity, async (tx) =>
            finish(tx, kindHandler.loadInSteps ? await kindHandler.loadInSteps(withinTransaction(tx), prepared, input) : await kindHandler.load!(tx, prepared, input)),
          );
    // Caches of ingested data on every instance are dropped once the item has committed.
    await publishAll(bus, loaded.records ? [...loaded.events, dataChangedNotice()] : loaded.events);
    return { status: loaded.warnings?.length ? 'partial' : 'ingested', records: loaded.records };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 500) : String(error);
    if (error instanceof NotForThisIngest) {
      await record('skipped', sha256, reason);
      return { status: 'skipped' };
    }
    logger.warn({ key: item.key, kind, reason }, 'ingest item failed');
    await record('failed', sha256, reason);
    return { status: 'failed' };
  }
}

/** A transaction of an item, once the requests being answered are through (see IngestDeps.activity). */
async function inTransaction<T>(prisma: PrismaClient, activity: RequestActivity | undefined, write: (tx: Tx) => Promise<T>): Promise<T> {
  if (activity) {
    await eventLoopTurn();
    await activity.settled(requestsFirstMs);
  }
  return prisma.$transaction(write, { timeout: itemTransactionMs, maxWait: itemTransactionMs });
}

/** An SEC archive document is named by accession only: its filing (indexed earlier in the run) says what it is. */
async function kindOf(prisma: PrismaClient, key: string): Promise<{ kind: ItemKind; form: string | null }> {
  const kind = classify(key);
  if (kind !== 'archive_document') return { kind, form: null };
  const { accessionNumber } = namedInPath(key);
  const filing = accessionNumber ? await prisma.filing.findUnique({ where: { accessionNumber }, select: { form: true } }) : null;
  return { kind: documentKindOfForm(filing?.form), form: filing?.form ?? null };
}

export function summaryLine(s: IngestSummary): string {
  return `ingest ${s.runId}: read ${s.read}, written ${s.written}${s.partial ? ` (${s.partial} partly)` : ''}, skipped ${s.skipped}, failed ${s.failed} (${s.records} records) in ${s.seconds.toFixed(1)} s from ${s.source}`;
}
