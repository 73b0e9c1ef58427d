// Structured JSON logs. Credentials are redacted wherever they could appear, and request
// logs carry the path without its query string, so a key pasted into a URL is never written.
import { pino, type Logger } from 'pino';

export type { Logger };

/** The reason in a message, without code frames and file locations (Prisma's start with both). */
function reasonOf(message: string): string {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(→|\d+\s)/.test(line) && !/invocation in \S+:\d+:\d+/.test(line));
  return lines.join(' ').replace(/\S+\.(ts|js):\d+(:\d+)?/g, '').slice(0, 1000);
}

/**
 * What a log says of an error: its kind and message, and those of its causes, never a stack
 * trace (which names files and lines of the deployment and may carry values from memory).
 */
export function describeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { name, message } = error;
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: unknown }).cause;
  return {
    type: error.constructor?.name ?? name,
    message: reasonOf(message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(cause !== undefined && depth < 3 ? { cause: describeError(cause, depth + 1) } : {}),
  };
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      serializers: { err: describeError, error: describeError },
      base: { service: 'investor-data-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['*.headers["x-api-key"]', '*.headers.authorization', '*.headers.cookie', 'secret', '*.secret', 'apiKey', '*.apiKey', 'token', '*.token'],
        censor: '[redacted]',
      },
    },
    // By default stdout, written asynchronously: a slow reader of the logs (a full pipe) then
    // never blocks the event loop, and pino flushes what is pending when the process exits.
    (destination as pino.DestinationStream | undefined) ?? pino.destination({ dest: 1, sync: false }),
  );
}
