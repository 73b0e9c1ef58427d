// The entry of the ingest thread (ingestThread.ts starts it): one ingest into a PostgreSQL
// database, from a source or from the SEC's bulk archives, through a Prisma client and connection
// pool of its own, so that parsing filings and building statements never hold the event loop that
// answers requests, and the requests' pool never waits behind the ingest. What the ingest
// publishes (its events, after each commit) and its progress go to the thread that started it,
// which owns the event bus.
// scripts/build.mjs bundles this file as its own entry, dist/ingest-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../core/logger.ts';
import { runBulkIngest, type BulkSummary } from '../ingest/bulk/run.ts';
import type { BulkProgress, BulkProgressState } from '../ingest/bulk/progress.ts';
import { runIngest, type IngestSummary, type Progress } from '../ingest/run.ts';
import { sourceFor, type SourceOptions } from '../ingest/sources/index.ts';
import { openDatabase } from '../prisma/db.ts';
import type { BusEvent, EventBus } from '../subscriptions/bus.ts';

/** what the thread ingests: a source's items, or the bulk archives in a folder */
export type IngestJob = { kind: 'source'; plan: SourceOptions } | { kind: 'bulk'; folder: string };

export interface IngestThreadInput {
  databaseUrl: string;
  logLevel: string;
  job: IngestJob;
}

export type IngestThreadMessage =
  | { type: 'events'; events: BusEvent[] }
  | { type: 'item'; done: number; total: number; key: string; records?: number }
  | { type: 'bulk'; state: Partial<BulkProgressState> }
  | { type: 'finish' }
  | { type: 'done'; summary: IngestSummary | BulkSummary }
  | { type: 'failed'; message: string; stack?: string };

const port = parentPort!;
const send = (message: IngestThreadMessage) => {
  if (message.type !== 'events') flush(); // what the ingest published first arrives first
  port.postMessage(message);
};
const { databaseUrl, logLevel, job } = workerData as IngestThreadInput;

// Publishing is handing the event over: the starting thread publishes them in this order. The
// events one commit announces (an index item's thousands of filing.added) cross as one message.
let outgoing: BusEvent[] = [];
const flush = () => {
  if (outgoing.length) send({ type: 'events', events: outgoing });
  outgoing = [];
};
const bus: EventBus = {
  publish: async (event) => {
    if (!outgoing.length) setImmediate(flush);
    outgoing.push(event);
  },
  subscribe: () => {
    throw new Error('the ingest thread only publishes');
  },
  close: async () => {},
};

const progress: Progress = {
  item: (done, total, key, records) => send({ type: 'item', done, total, key, records }),
  finish: () => send({ type: 'finish' }),
};
const bulkProgress: BulkProgress = {
  update: (state) => send({ type: 'bulk', state }),
  finish: () => send({ type: 'finish' }),
};

/** Not top-level await: run from source, the thread requires this module (see ingestThread.ts). */
async function ingest(): Promise<void> {
  const logger = createLogger(logLevel);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl }, { migrate: false });
  try {
    const deps = { prisma: database.prisma, bus, logger };
    const summary = job.kind === 'bulk' ? await runBulkIngest(deps, job.folder, bulkProgress) : await runIngest(deps, sourceFor(job.plan, { prisma: database.prisma, logger }), progress);
    send({ type: 'done', summary });
  } catch (error) {
    send({ type: 'failed', message: (error as Error).message ?? String(error), stack: (error as Error).stack });
  } finally {
    await database.close();
  }
}

void ingest();
