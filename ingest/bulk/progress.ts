// Progress of a bulk ingest: on a terminal one line redrawn every second (files and rows done,
// rows per second, time left); otherwise a plain line every five seconds, for logs.

export interface BulkProgressState {
  phase: 'load' | 'indexes' | 'derived';
  filesDone: number;
  files: number;
  bytesDone: number;
  bytes: number;
  rows: number;
}

export interface BulkProgress {
  update(state: Partial<BulkProgressState>): void;
  finish(): void;
}

export function bulkProgress(write: (text: string) => void, terminal: boolean, started = performance.now()): BulkProgress {
  const state: BulkProgressState = { phase: 'load', filesDone: 0, files: 0, bytesDone: 0, bytes: 0, rows: 0 };
  const line = () => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? state.rows / seconds : 0;
    const byteRate = seconds > 0 ? state.bytesDone / seconds : 0;
    const left = state.phase === 'derived' ? 'building derived data' : state.phase === 'indexes' ? 'building indexes' : byteRate > 0 ? `${formatDuration((state.bytes - state.bytesDone) / byteRate)} left` : 'time left unknown';
    return `bulk ingest: ${state.filesDone}/${state.files} files, ${state.rows.toLocaleString('en-US')} rows, ${Math.round(rate).toLocaleString('en-US')} rows/s, ${left}`;
  };
  const timer = setInterval(() => write(terminal ? `\r${line()}\x1b[K` : `${line()}\n`), terminal ? 1000 : 5000);
  timer.unref();
  return {
    update(next) {
      Object.assign(state, next);
    },
    finish() {
      clearInterval(timer);
      if (terminal) write('\r\x1b[K');
    },
  };
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
