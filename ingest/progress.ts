// Progress of an ingest, so a long one is never silent: on a terminal one line redrawn every
// second; otherwise a log line every five seconds. Each says items done of total, records
// written, records per second and the time left (from the pace of the items done so far).
import type { Logger } from '../core/logger.ts';
import type { Progress } from './run.ts';

export interface IngestPace {
  done: number;
  total: number;
  records: number;
  seconds: number;
}

/** records per second, and the seconds left at the pace of the items done so far (null before the first) */
export function pace({ done, total, records, seconds }: IngestPace): { recordsPerSecond: number; secondsLeft: number | null } {
  return {
    recordsPerSecond: seconds > 0 ? records / seconds : 0,
    secondsLeft: done > 0 ? Math.max(0, ((total - done) * seconds) / done) : null,
  };
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'time left unknown';
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/**
 * `terminal`: the stream to redraw one line on (stderr of a command run by hand); without one,
 * the lines go to `logger`.
 */
export function ingestProgress(options: { logger: Logger; terminal?: NodeJS.WriteStream; intervalMs?: number }): Progress {
  const { logger, terminal } = options;
  const started = performance.now();
  const state = { done: 0, total: 0, records: 0 };
  let counting = false; // the source is still being listed until the first item: no total yet
  const report = () => {
    if (!counting) return;
    const seconds = (performance.now() - started) / 1000;
    const { recordsPerSecond, secondsLeft } = pace({ ...state, seconds });
    if (terminal) {
      terminal.write(`\ringest: ${state.done}/${state.total} items, ${state.records.toLocaleString('en-US')} records, ${Math.round(recordsPerSecond).toLocaleString('en-US')} records/s, ${secondsLeft === null ? 'time left unknown' : `${formatDuration(secondsLeft)} left`}\x1b[K`);
    } else {
      logger.info({ itemsDone: state.done, itemsTotal: state.total, records: state.records, recordsPerSecond: Math.round(recordsPerSecond), secondsLeft: secondsLeft === null ? null : Math.round(secondsLeft) }, `ingest: ${state.done}/${state.total} items, ${formatDuration(secondsLeft)}${secondsLeft === null ? '' : ' left'}`);
    }
  };
  const timer = setInterval(report, options.intervalMs ?? (terminal ? 1000 : 5000));
  timer.unref();
  return {
    item(done, total, _key, records = state.records) {
      Object.assign(state, { done, total, records });
      counting = true;
    },
    finish() {
      clearInterval(timer);
      if (terminal) terminal.write('\r\x1b[K');
    },
  };
}
