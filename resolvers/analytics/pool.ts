// Runs the numerical part of portfolio analytics (tasks.ts) on worker threads, so that a
// regression, an optimisation or a stress replay does not hold every other request behind it:
// piscina's pool of IDS_ANALYTICS_THREADS threads, started by the first computation (most
// services, test services above all, never run one). With 0 threads the computations run on the
// event loop, as they did before the pool.
//
// Arguments and results cross by structured clone, which keeps every number's bits, so an answer
// is the same whichever way it was computed. Each thread runs one computation at a time; one that
// dies (a crash, an exit) fails the computation it was running, that request alone answers 500,
// and piscina starts a thread in its place.
import { Piscina } from 'piscina';
import type { Logger } from '../../core/logger.ts';
import { assertEntryExists, threadEntry } from '../../core/threadEntry.ts';
import { settle, type AnalyticsRunner, type Outcome, type TaskName } from './runner.ts';
import { runTask } from './tasks.ts';
import type { TaskMessage } from './worker.ts';

export function createAnalyticsRunner(options: { threads: number; logger: Logger }): AnalyticsRunner {
  const { threads, logger } = options;
  if (threads === 0) {
    return {
      threads: 0,
      run: async (name: TaskName, ...args: unknown[]) => runTask(name, args) as never,
      workers: () => [],
      close: async () => {},
    };
  }

  // A bundle built without its worker fails the start, not every analytics request after it.
  const entry = threadEntry(import.meta.url, './worker.ts', 'analytics-worker.js');
  assertEntryExists(entry, 'analytics worker', 'set IDS_ANALYTICS_THREADS=0');
  let pool: Piscina<TaskMessage, Outcome> | undefined;
  let closed = false;
  /** what fails the computations still running when the pool is closed under them */
  const running = new Set<(error: Error) => void>();
  const start = () => {
    const started = new Piscina<TaskMessage, Outcome>({ ...entry, minThreads: threads, maxThreads: threads });
    // A thread that fails outside any computation (piscina replaces it); unheard, this 'error'
    // event would end the process.
    started.on('error', (error: unknown) => logger.error({ err: error }, 'analytics worker thread failed'));
    return started;
  };

  return {
    threads,
    run: (name: TaskName, ...args: unknown[]) => {
      if (closed) return Promise.reject(new Error('the analytics pool is closed'));
      pool ??= start();
      const started = pool.run({ name, args });
      return new Promise<never>((resolve, reject) => {
        running.add(reject);
        started
          .then(
            (outcome) => resolve(settle(outcome) as never),
            (error: unknown) => {
              // The thread ended while it ran this computation: this request fails, the next one
              // gets a new thread.
              logger.error({ err: error, task: name }, 'analytics worker thread ended during a computation');
              throw error;
            },
          )
          .catch(reject)
          .finally(() => running.delete(reject));
      });
    },
    workers: () => pool?.threads ?? [],
    async close() {
      closed = true;
      // The requests have had their grace period by now (the service closes its pool after its
      // HTTP server), so the threads end at once: a computation still running is a cut request's.
      await pool?.destroy();
      for (const reject of running) reject(new Error('the analytics pool closed during the computation'));
      running.clear();
    },
  };
}
