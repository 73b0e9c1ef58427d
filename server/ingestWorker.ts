// The entry of the ingest thread (ingestThread.ts starts it): one ingest from a source into a
// PostgreSQL database, through a Prisma client and connection pool of its own, so that parsing
// filings and building statements never hold the event loop that answers requests, and the
// requests' pool never waits behind the ingest. What the ingest publishes (its events, after each
// commit) and its progress go to the thread that started it, which owns the event bus.
// scripts/build.mjs bundles this file as its own entry, dist/ingest-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../core/logger.ts';
import { runIngest, type IngestSummary, type Progress } from '../ingest/run.ts';
import { sourceFor, type SourceOptions } from '../ingest/sources/index.ts';
import { openDatabase } from '../prisma/db.ts';
import type { BusEvent, EventBus } from '../subscriptions/bus.ts';

export interface IngestThreadInput {
  databaseUrl: string;
  logLevel: string;
  plan: SourceOptions;
}

export type IngestThreadMessage =
  | { type: 'events'; events: BusEvent[] }
  | { type: 'item'; done: number; total: number; key: string; records?: number }
  | { type: 'finish' }
  | { type: 'done'; summary: IngestSummary }
  | { type: 'failed'; message: string; stack?: string };

const port = parentPort!;
const send = (message: IngestThreadMessage) => {
  if (message.type !== 'events') flush(); // what the ingest published first arrives first
  port.postMessage(message);
};
const { databaseUrl, logLevel, plan } = workerData as IngestThreadInput;

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

/** Not top-level await: run from source, the thread requires this module (see ingestThread.ts). */
async function ingest(): Promise<void> {
  const logger = createLogger(logLevel);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl }, { migrate: false });
  try {
    const summary = await runIngest({ prisma: database.prisma, bus, logger }, sourceFor(plan, { prisma: database.prisma, logger }), progress);
    send({ type: 'done', summary });
  } catch (error) {
    send({ type: 'failed', message: (error as Error).message ?? String(error), stack: (error as Error).stack });
  } finally {
    await database.close();
  }
}

void ingest();
