// The ingest's state: what is loading now and how the last run ended.
import { ingestStatus, type IngestRunView } from '../resolvers/ingestStatus.ts';
import { builder } from './builder.ts';

const RunState = builder.enumType('IngestRunState', { values: ['running', 'finished', 'interrupted'] as const });
const ServiceIngestState = builder.enumType('IngestState', { values: ['running', 'idle', 'never_run'] as const });

const IngestRunRef = builder.objectRef<IngestRunView>('IngestRunProgress').implement({
  description: 'One ingest run (item by item from a folder or the SEC, or bulk from the nightly archives).',
  fields: (t) => ({
    id: t.exposeString('id'),
    source: t.exposeString('source', { description: 'What it reads: a folder, the SEC, or `bulk <folder>`' }),
    state: t.field({ type: RunState, resolve: (r) => r.state }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the run last wrote its counts (at most once a second while it works)' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
    total: t.exposeInt('total', { description: 'Items (files, archive members) to read; 0 while still listing them' }),
    read: t.exposeInt('read'),
    written: t.exposeInt('written'),
    skipped: t.exposeInt('skipped', { description: 'Unchanged since an earlier run' }),
    failed: t.exposeInt('failed', { description: 'See `ids ingest:failures`' }),
    records: t.exposeInt('records', { description: 'Records written (facts, filings, sections, form rows, …)' }),
    fraction: t.exposeFloat('fraction', { nullable: true, description: 'read ÷ total, null while listing' }),
    recordsPerSecond: t.exposeInt('recordsPerSecond', { nullable: true }),
    secondsLeft: t.exposeInt('secondsLeft', { nullable: true, description: 'At the rate so far; null unless running' }),
  }),
});

type Status = Awaited<ReturnType<typeof ingestStatus>>;

const IngestStatusRef = builder.objectRef<Status>('IngestStatus').implement({
  fields: (t) => ({
    state: t.field({ type: ServiceIngestState, resolve: (s) => s.state }),
    running: t.field({ type: [IngestRunRef], resolve: (s) => s.running }),
    lastFinished: t.field({ type: IngestRunRef, nullable: true, resolve: (s) => s.lastFinished }),
    interrupted: t.field({ type: [IngestRunRef], description: 'Runs that stopped moving without finishing (their process died); a new run picks up where they left off', resolve: (s) => s.interrupted }),
    checkedAt: t.expose('checkedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  ingestStatus: t.field({
    type: IngestStatusRef,
    description: 'What the service is ingesting now, and how its last ingest ended.',
    resolve: (_root, _args, ctx) => ingestStatus(ctx),
  }),
}));
