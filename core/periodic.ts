// Housekeeping a service runs on a timer (purges of rows past their life): one run every
// `everyMs`, never holding the process open, and a stop that waits for a run under way.
import type { Logger } from './logger.ts';

export function repeatEvery(everyMs: number, task: () => Promise<unknown>, logger: Logger, failure: string) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = task().catch((err) => logger.warn({ err }, failure));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
