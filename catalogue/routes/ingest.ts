// The ingest's state (resolvers/ingestStatus.ts), for clients that wait for data to arrive.
import { z } from 'zod';
import { IngestStatusDocument } from '../operations/generated.ts';
import { operationRoute, viewParam } from '../route.ts';

const run = z.object({
  id: z.string(),
  source: z.string().describe('What it reads: a folder, the SEC, or `bulk <folder>`'),
  state: z.enum(['running', 'finished', 'interrupted']),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime().describe('When the run last wrote its counts (at most once a second while it works)'),
  finishedAt: z.iso.datetime().nullable(),
  total: z.number().int().describe('Items (files, archive members) to read; 0 while still listing them'),
  read: z.number().int(),
  written: z.number().int(),
  skipped: z.number().int().describe('Unchanged since an earlier run'),
  failed: z.number().int().describe('Items that could not be loaded (`ids ingest:failures` lists them)'),
  records: z.number().int().describe('Records written: facts, filings, sections, form rows, …'),
  fraction: z.number().nullable().describe('read ÷ total; null while listing'),
  recordsPerSecond: z.number().int().nullable(),
  secondsLeft: z.number().int().nullable().describe('At the rate so far; null unless running'),
});

export const ingestRoutes = [
  operationRoute({
    name: 'ingest_status',
    method: 'GET',
    path: '/v1/ingest/status',
    summary: 'What the service is ingesting now, and how its last ingest ended',
    description:
      'Every ingest (the first start\'s background load, `ids ingest` from a folder or the SEC, `ids ingest --bulk` from the nightly archives), in whatever process runs it on this database, writes its counts to its run at most once a second: items read of the total, written, skipped as unchanged, failed, records written, and from them the rate and the time left. ' +
      '`state` is `running` while any run is moving, else `idle` (or `never_run` on a database that has never ingested). A run that has not moved for 10 minutes without finishing is `interrupted` (its process died; the next run skips what it completed and goes on).',
    tag: 'Diagnostics',
    access: 'org',
    meter: 'platform',
    mcp: true,
    errors: [],
    params: { query: z.strictObject({ view: viewParam }) },
    response: z.object({
      object: z.literal('ingest_status'),
      state: z.enum(['running', 'idle', 'never_run']),
      running: z.array(run),
      lastFinished: run.nullable(),
      interrupted: z.array(run),
      checkedAt: z.iso.datetime(),
      requestId: z.string(),
    }),
    operation: IngestStatusDocument,
    variables: () => ({}),
  }).reshape(({ ingestStatus }, meta) => ({ object: 'ingest_status', ...ingestStatus, ...meta })),
];
