// Runs an ingest on a worker thread of its own (ingestWorker.ts). A server on PostgreSQL ingests
// there while it answers requests: parsing a filing or building a company's statements takes the
// CPU for up to seconds at a time, and on the event loop every request arriving meanwhile waited
// that long. A bulk load runs there too, under a heap cap. The thread opens its own connections;
// the events it publishes after each commit are published here, on this service's bus, in the
// order it sent them, before the ingest is reported done. (The embedded database is one
// connection inside this thread: its ingest stays here.)
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { BulkSummary } from '../ingest/bulk/run.ts';
import type { BulkProgress } from '../ingest/bulk/progress.ts';
import type { IngestSummary, Progress } from '../ingest/run.ts';
import type { SourceOptions } from '../ingest/sources/index.ts';
import type { Services } from '../resolvers/context.ts';
import type { BusEvent, EventBus } from '../subscriptions/bus.ts';
import { publishAll } from '../subscriptions/events.ts';
import type { IngestJob, IngestThreadInput, IngestThreadMessage } from './ingestWorker.ts';

/**
 * The worker's entry and how a thread loads it. Run from source (tsx, vitest), this module sits
 * beside ingestWorker.ts, and a thread needs tsx's loader to read TypeScript: the thread loads it
 * first, then requires the entry through its require hook (on Node 20 neither `--import` in the
 * thread's execArgv nor its import hook reaches a thread's entry). In the bundle `npm start` runs,
 * this code is inside dist/main.js and the worker is its own entry beside it (scripts/build.mjs).
 */
function startWorker(workerData: IngestThreadInput, resourceLimits?: ResourceLimits): Worker {
  if (new URL(import.meta.url).pathname.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const entry = fileURLToPath(new URL('./ingestWorker.ts', import.meta.url));
    return new Worker(`import(${JSON.stringify(tsx)}).then(() => require(${JSON.stringify(entry)}))`, { eval: true, workerData, resourceLimits });
  }
  return new Worker(new URL('./ingest-worker.js', import.meta.url), { workerData, resourceLimits });
}

/** a slice of events published before requests waiting meanwhile get the event loop */
const publishSlice = 200;

/** Publishes in order, letting requests in between slices (the subscribers' work is on this thread). */
async function publishInSlices(bus: EventBus, events: BusEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += publishSlice) {
    if (start) await new Promise((resolve) => setImmediate(resolve));
    await publishAll(bus, events.slice(start, start + publishSlice));
  }
}

/**
 * The bulk ingest's thread keeps its old generation under this cap. What the load holds at once
 * is small (a member in flight, a batch of rows: the live heap stayed under 160 MB), but with the
 * default limit V8 postponed collection until the process held about a gigabyte. Measured at
 * factor 10, a cap of 512 or 768 loaded within the run-to-run noise of no cap (median 5-7% slower).
 */
const bulkThreadHeapMb = 768;

/**
 * Its young generation is larger than V8's default: a member's parsed JSON and its rows live for
 * as long as the member is prepared, and in the default size they outlived two scavenges and were
 * promoted, so that the old generation's collections took a third of the fact load. Measured at
 * factor 10 (3 runs each, medians): 83,000 fact rows/s against 63,000, the derived build 73,000
 * facts/s against 58,000, peak RSS about 100 MB higher (666-716 MiB against 562-630).
 */
const bulkThreadYoungMb = 192;

/** Runs one job on a thread and settles with its summary once the events it sent are published. */
function runInThread<S>(services: Pick<Services, 'bus' | 'logger'>, input: IngestThreadInput, report: (message: IngestThreadMessage) => void, resourceLimits?: ResourceLimits): Promise<S> {
  const worker = startWorker(input, resourceLimits);
  // events are published one after another, in the order the ingest committed them
  let published: Promise<void> = Promise.resolve();
  return new Promise<S>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    worker.on('message', (message: IngestThreadMessage) => {
      if (message.type === 'events') {
        const { events } = message;
        published = published.then(() => publishInSlices(services.bus, events)).catch((error: unknown) => services.logger.warn({ err: error }, 'publishing ingest events failed'));
      } else if (message.type === 'done') {
        const summary = message.summary as S;
        settled = true; // the thread ends now; the ingest is done once its events are out
        void published.then(() => resolve(summary));
      } else if (message.type === 'failed') settle(() => reject(Object.assign(new Error(message.message), { stack: message.stack })));
      else report(message);
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the ingest thread exited with ${code} before the ingest finished`))));
  });
}

export function ingestInThread(services: Pick<Services, 'bus' | 'config' | 'logger'>, databaseUrl: string, plan: SourceOptions, progress?: Progress): Promise<IngestSummary> {
  return runInThread<IngestSummary>(services, { databaseUrl, logLevel: services.config.logLevel, job: { kind: 'source', plan } }, (message) => {
    if (message.type === 'item') progress?.item(message.done, message.total, message.key, message.records);
    else if (message.type === 'finish') progress?.finish();
  });
}

/** The bulk archives in a folder, loaded into PostgreSQL on a thread whose heap is capped. */
export function bulkIngestInThread(services: Pick<Services, 'bus' | 'logger'>, target: { databaseUrl: string; logLevel: string }, folder: string, progress?: BulkProgress): Promise<BulkSummary> {
  const job: IngestJob = { kind: 'bulk', folder };
  return runInThread<BulkSummary>(
    services,
    { ...target, job },
    (message) => {
      if (message.type === 'bulk') progress?.update(message.state);
      else if (message.type === 'finish') progress?.finish();
    },
    { maxOldGenerationSizeMb: bulkThreadHeapMb, maxYoungGenerationSizeMb: bulkThreadYoungMb },
  );
}
