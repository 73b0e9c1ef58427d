// Structured JSON logs. Credentials are redacted wherever they could appear, and request
// logs carry the path without its query string, so a key pasted into a URL is never written.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: 'investor-data-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['*.headers["x-api-key"]', '*.headers.authorization', '*.headers.cookie', 'secret', '*.secret', 'apiKey', '*.apiKey', 'token', '*.token'],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}
