// Runs an ingest on a worker thread of its own (ingestWorker.ts), for a server on PostgreSQL that
// ingests while it answers requests: parsing a filing or building a company's statements takes the
// CPU for up to seconds at a time, and on the event loop every request arriving meanwhile waited
// that long. The thread opens its own connections; the events it publishes after each commit are
// published here, on this service's bus, in the order it sent them, before the ingest is reported
// done. (The embedded database is one connection inside this thread: its ingest stays here.)
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IngestSummary, Progress } from '../ingest/run.ts';
import type { SourceOptions } from '../ingest/sources/index.ts';
import type { Services } from '../resolvers/context.ts';
import type { BusEvent, EventBus } from '../subscriptions/bus.ts';
import { publishAll } from '../subscriptions/events.ts';
import type { IngestThreadInput, IngestThreadMessage } from './ingestWorker.ts';

/**
 * The worker's entry and how a thread loads it. Run from source (tsx, vitest), this module sits
 * beside ingestWorker.ts, and a thread needs tsx's loader to read TypeScript: the thread loads it
 * first, then requires the entry through its require hook (on Node 20 neither `--import` in the
 * thread's execArgv nor its import hook reaches a thread's entry). In the bundle `npm start` runs,
 * this code is inside dist/main.js and the worker is its own entry beside it (scripts/build.mjs).
 */
function startWorker(workerData: IngestThreadInput): Worker {
  if (new URL(import.meta.url).pathname.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const entry = fileURLToPath(new URL('./ingestWorker.ts', import.meta.url));
    return new Worker(`import(${JSON.stringify(tsx)}).then(() => require(${JSON.stringify(entry)}))`, { eval: true, workerData });
  }
  return new Worker(new URL('./ingest-worker.js', import.meta.url), { workerData });
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

export function ingestInThread(services: Pick<Services, 'bus' | 'config' | 'logger'>, databaseUrl: string, plan: SourceOptions, progress?: Progress): Promise<IngestSummary> {
  const worker = startWorker({ databaseUrl, logLevel: services.config.logLevel, plan });
  // events are published one after another, in the order the ingest committed them
  let published: Promise<void> = Promise.resolve();
  return new Promise<IngestSummary>((resolve, reject) => {
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
      } else if (message.type === 'item') progress?.item(message.done, message.total, message.key, message.records);
      else if (message.type === 'finish') progress?.finish();
      else if (message.type === 'done') {
        const { summary } = message;
        settled = true; // the thread ends now; the ingest is done once its events are out
        void published.then(() => resolve(summary));
      } else settle(() => reject(Object.assign(new Error(message.message), { stack: message.stack })));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the ingest thread exited with ${code} before the ingest finished`))));
  });
}
