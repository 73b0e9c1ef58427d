// Signals (derived/signals.ts, resolvers/signals.ts): fixed rules over held filings, each citing its evidence.
import { signalTypes, type Signal, type SignalEvidence } from '../derived/signals.ts';
import { listSignals } from '../resolvers/signals.ts';
import { builder } from './builder.ts';
import { companyFilter, maxPageSize } from './edgar.ts';

const Evidence = builder.objectRef<SignalEvidence>('SignalEvidence').implement({
  description: 'A filing a signal rests on, cited.',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber'),
    form: t.exposeString('form'),
    filedAt: t.exposeString('filedAt', { nullable: true, description: 'YYYY-MM-DD' }),
    item: t.exposeString('item', { nullable: true, description: 'The 8-K item, when the evidence is one' }),
    citationUrl: t.exposeString('citationUrl'),
    excerpt: t.exposeString('excerpt', { nullable: true, description: 'The filing\'s own words, at most 600 characters' }),
    excerptNullReason: t.exposeString('excerptNullReason', { nullable: true, description: 'document_not_held (only the index knows the filing), structured_form (a Form 4 has no prose), no_text' }),
    detail: t.exposeString('detail', { description: 'What this filing shows, in words' }),
  }),
});

const SignalRef = builder.objectRef<Signal>('Signal').implement({
  description: 'A signal computed by a fixed rule from held filings; its id is a digest of its type and its evidence\'s accession numbers.',
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.exposeString('type', { description: Object.keys(signalTypes).join(', ') }),
    strength: t.exposeFloat('strength', { description: '0 to 1, by the formula `method` states' }),
    method: t.exposeString('method', { description: 'The rule and the strength formula, in words' }),
    asOf: t.exposeString('asOf', { description: 'The filing date of the newest evidence, YYYY-MM-DD' }),
    cik: t.exposeString('cik'),
    companyName: t.exposeString('companyName', { nullable: true }),
    evidence: t.field({ type: [Evidence], resolve: (s) => s.evidence }),
  }),
});

builder.queryFields((t) => ({
  signals: t.connection({
    type: SignalRef,
    description: 'Signals computed from held filings (officer departures, auditor changes, non-reliance, failed votes, late filings, 13D stakes, insider clusters), newest evidence first.',
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      type: t.arg.string({ description: Object.keys(signalTypes).join(', ') }),
      from: t.arg({ type: 'Date', description: 'asOf on or after' }),
      to: t.arg({ type: 'Date', description: 'asOf on or before' }),
    },
    resolve: async (_root, args, ctx) => {
      const company = await companyFilter(ctx, args);
      const first = Math.min(Math.max(args.first ?? 25, 1), maxPageSize);
      const page = await listSignals(ctx, { ciks: company.cik?.in ?? null, type: args.type, from: args.from, to: args.to }, first, args.after ?? null);
      return {
        edges: page.records.map(({ record, cursor }) => ({ cursor, node: record })),
        pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: false, startCursor: page.records[0]?.cursor ?? null, endCursor: page.endCursor },
      };
    },
  }),
}));
