// Runs an ingest: every item of a source, in load order, each in its own transaction with its
// IngestItem row. An unchanged item (same digest, ingested before) is skipped; an item that
// fails is recorded with its reason and the run goes on.
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../prisma/db.ts';
import { newId } from '../server/ids.ts';
import type { Logger } from '../server/logger.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import { publishAll } from '../subscriptions/events.ts';
import { classify, documentKindOfForm, loadOrder, namedInPath } from './classify.ts';
import { handlers } from './registry.ts';
import { NotForThisIngest } from './handlers.ts';
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
  item(done: number, total: number, key: string): void;
  finish(): void;
}

/** A large document (a 4 MB companyfacts) may take a while to write on the embedded database. */
const itemTransactionMs = 300_000;

export async function runIngest(deps: { prisma: PrismaClient; bus: EventBus; logger: Logger }, source: Source, progress?: Progress): Promise<IngestSummary> {
  const { prisma, bus, logger } = deps;
  const started = Date.now();
  const run = await prisma.ingestRun.create({ data: { id: newId('run'), source: source.describe() } });
  const summary: IngestSummary = { runId: run.id, source: source.describe(), read: 0, written: 0, partial: 0, skipped: 0, failed: 0, records: 0, seconds: 0 };

  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  const rank = (item: SourceItem) => loadOrder.indexOf(classify(item.key));
  items.sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));

  for (const [index, item] of items.entries()) {
    progress?.item(index, items.length, item.key);
    summary.read++;
    const { kind, form } = await kindOf(prisma, item.key);
    const record = async (status: 'failed' | 'skipped', sha256: string, reason: string) => {
      await prisma.ingestItem.upsert({
        where: { sourceKey: item.key },
        create: { sourceKey: item.key, kind, sha256, status, reason, runId: run.id },
        update: { kind, sha256, status, reason, runId: run.id, records: 0 },
      });
    };

    let text: string;
    try {
      text = await item.read();
    } catch (error) {
      summary.failed++;
      await record('failed', '', `could not read: ${(error as Error).message}`);
      continue;
    }
    const sha256 = createHash('sha256').update(text).digest('hex');
    const before = await prisma.ingestItem.findUnique({ where: { sourceKey: item.key } });
    if (before && before.sha256 === sha256 && before.status !== 'failed') {
      summary.skipped++;
      continue;
    }

    const kindHandler = handlers[kind];
    try {
      if (!kindHandler) throw new Error(kind === 'unknown' ? 'unknown kind of file: not a layout or SEC path this ingest knows' : `no parser for ${kind}`);
      const input = { key: item.key, name: item.name, text, kind, form };
      const parsed = kindHandler.parse(input);
      const outcome = await prisma.$transaction(
        async (tx) => {
          const loaded = await kindHandler.load(tx, parsed, input);
          // 'partial': the item went in, but some of it (listed in reason) was left out.
          const status = loaded.warnings?.length ? 'partial' : 'ingested';
          const reason = loaded.warnings?.length ? loaded.warnings.join('; ').slice(0, 2000) : null;
          await tx.ingestItem.upsert({
            where: { sourceKey: item.key },
            create: { sourceKey: item.key, kind, sha256, status, reason, records: loaded.records, runId: run.id },
            update: { kind, sha256, status, reason, records: loaded.records, runId: run.id },
          });
          return loaded;
        },
        { timeout: itemTransactionMs, maxWait: itemTransactionMs },
      );
      summary.written++;
      if (outcome.warnings?.length) summary.partial++;
      summary.records += outcome.records;
      await publishAll(bus, outcome.events);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 500) : String(error);
      if (error instanceof NotForThisIngest) {
        summary.skipped++;
        await record('skipped', sha256, reason);
      } else {
        summary.failed++;
        logger.warn({ key: item.key, kind, reason }, 'ingest item failed');
        await record('failed', sha256, reason);
      }
    }
  }
  progress?.finish();
  summary.seconds = (Date.now() - started) / 1000;
  await prisma.ingestRun.update({
    where: { id: run.id },
    data: { finishedAt: new Date(), read: summary.read, written: summary.written, skipped: summary.skipped, failed: summary.failed },
  });
  return summary;
}

/** An SEC archive document is named by accession only: its filing (indexed earlier in the run) says what it is. */
async function kindOf(prisma: PrismaClient, key: string) {
  const kind = classify(key);
  const { accessionNumber } = namedInPath(key);
  const filing = accessionNumber ? await prisma.filing.findUnique({ where: { accessionNumber }, select: { form: true } }) : null;
  return { kind: kind === 'archive_document' ? documentKindOfForm(filing?.form) : kind, form: filing?.form ?? null };
}

export function summaryLine(s: IngestSummary): string {
  return `ingest ${s.runId}: read ${s.read}, written ${s.written}${s.partial ? ` (${s.partial} partly)` : ''}, skipped ${s.skipped}, failed ${s.failed} (${s.records} records) in ${s.seconds.toFixed(1)} s from ${s.source}`;
}

/** A one-line progress bar on a terminal; nothing when the output is not one. */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress | undefined {
  if (!stream.isTTY) return undefined;
  return {
    item(done, total, key) {
      const width = 30;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      stream.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total} ${key.slice(-50).padEnd(50)}`);
    },
    finish() {
      stream.write('\r\x1b[K');
    },
  };
}
