// Every request to /v1, /graphql and /mcp is recorded for diagnostics (GET
// /v1/diagnostics/requests/{request_id}). Records are kept in memory and written in batches, off
// the request path: a request never waits for its own record.
import type { PrismaClient } from '../prisma/db.ts';
import { directExecute } from '../prisma/directRead.ts';
import type { Logger } from '../core/logger.ts';
import type { RecordedTrace } from '../core/requestSpans.ts';

export interface RequestEntry {
  id: string;
  orgId: string | null;
  apiKeyId: string | null;
  door: 'rest' | 'graphql' | 'mcp';
  operation: string | null;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  meterClass: string | null;
  cost: number | null;
  durationMs: number;
  createdAt: Date;
  /** the request's spans (GET /v1/traces/{request_id}); null when tracing is off */
  spans: RecordedTrace | null;
}

const columns = [
  ['id', 'text'],
  ['orgId', 'text'],
  ['apiKeyId', 'text'],
  ['door', 'text'],
  ['operation', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['status', 'int4'],
  ['errorCode', 'text'],
  ['meterClass', 'text'],
  ['cost', 'int4'],
  ['durationMs', 'float8'],
  ['createdAt', 'timestamptz'],
  ['spans', 'json'],
] as const satisfies ReadonlyArray<readonly [keyof RequestEntry, string]>;

// A batch in one statement, as one JSON text the database takes apart: Prisma's createMany, or a
// parameter array per column, cost the instance more JavaScript per request than the record is
// worth (JSON.stringify is native), and so did the client's own serialization of that text, which
// directExecute passes to the driver as it is. Times go as UTC instants and are stored as UTC, as Prisma
// stores them, whatever the session's zone.
const insertSql = `INSERT INTO "RequestRecord" (${columns.map(([c]) => `"${c}"`).join(', ')})
  SELECT ${columns.map(([c, type]) => (type === 'timestamptz' ? `r."${c}" AT TIME ZONE 'UTC'` : `r."${c}"`)).join(', ')}
  FROM json_to_recordset($1::json) AS r(${columns.map(([c, type]) => `"${c}" ${type}`).join(', ')})
  ON CONFLICT ("id") DO NOTHING`;

export interface RequestLog {
  record(entry: RequestEntry): void;
  /** writes what is held now (a diagnostics read calls it, so that its own instance's records are there) */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const flushEveryMs = 500;
const flushAt = 200;
/** past this many unwritten records (the database is down), the oldest are dropped, and it is logged */
const maxHeld = 20_000;

export function createRequestLog(prisma: PrismaClient, logger: Logger, enabled = true): RequestLog {
  let held: RequestEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    writing = writing.then(async () => {
      if (!held.length) return;
      const batch = held;
      held = [];
      try {
        await directExecute(prisma, insertSql, JSON.stringify(batch)); // a Date becomes its ISO instant
      } catch (error) {
        held = [...batch, ...held].slice(-maxHeld);
        logger.warn({ err: (error as Error).message, held: held.length }, 'request records could not be written; kept for the next try');
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), flushEveryMs);
  timer.unref();
  return {
    record(entry) {
      if (!enabled) return;
      held.push(entry);
      if (held.length >= flushAt) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
