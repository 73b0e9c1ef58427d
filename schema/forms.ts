// Structured forms and the events filings disclose.
import { requireDataAccess } from '../resolvers/access.ts';
import { assertAccess } from '../resolvers/access.ts';
import { citationKey, documentCitations, documentsHeld } from '../derived/citations.ts';
import type { DataReader } from '../derived/dataCache.ts';
import { builder } from './builder.ts';
import { noAccessionReason } from '../resolvers/ownership.ts';
import { cikOf, tickerOf } from '../resolvers/entities.ts';
import { companyFilter, maxPageSize, onlyRecords } from './edgar.ts';

/** Why a record has no citation URL: every served record has one or the other. */
function citationNullReason(record: { accessionNumber: string | null; cik: string | null; isSample: boolean }): string | null {
  if (record.accessionNumber && record.cik) return null;
  return record.isSample ? sampleDocumentReason : noAccessionReason;
}

/** Why an event read from a document that names no filing has no citation URL. */
const unfiledEventReason = 'The document this event was read from states no accession number, and no index or submissions file held names its filing, so no SEC URL can be built for it.';

/** The sentence an event's values were read from, as the document states it (the parser keeps it in the event's data). */
function sourceSpanOf(event: { data: unknown }): string | null {
  const span = (event.data as { sourceSpan?: unknown } | null)?.sourceSpan;
  return typeof span === 'string' ? span : null;
}

/** Why an event cites no sentence: the parser's own reason, or what kept it from reading one. */
function sourceSpanNullReason(event: { data: unknown; fromIndexOnly: boolean; item: string | null; type: string }): string | null {
  if (sourceSpanOf(event)) return null;
  const data = event.data as { sourceSpan?: unknown; sourceSpanNullReason?: unknown } | null;
  if (event.fromIndexOnly) return 'Only EDGAR\'s index tells of this event: its document was not ingested, so no sentence was read.';
  if (typeof data?.sourceSpanNullReason === 'string') return data.sourceSpanNullReason;
  if (event.item && data && !('sourceSpan' in data)) return 'The document was ingested before events kept their sentence: ingest it again to read it.';
  return `Events of type ${event.type} are read from the document as a whole, not from one sentence.`;
}

const sampleDocumentReason = 'One of the SEC\'s published specification samples (fictitious data, never filed), so there is no filing to cite.';

builder.prismaObject('FormRecord', {
  description: 'A structured form (Form D, 144, C, 13F, 3/4/5, 13D/G, N-CEN, N-PORT, N-PX, offering cover page) as parsed from its document.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The accession number, or `doc_…` for a document that does not carry one' }),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    family: t.exposeString('family', { description: 'D, 144, C, 13F, OWNERSHIP, 13DG, NCEN, NPORT, NPX or OFFERING' }),
    formType: t.exposeString('formType', { description: 'As filed, e.g. D/A or C-U' }),
    cik: t.exposeString('cik', { nullable: true, description: 'The primary subject: issuer, fund, manager or filer' }),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    periodOfReport: t.expose('periodOfReport', { type: 'Date', nullable: true }),
    isSample: t.exposeBoolean('isSample', { description: 'True for the SEC\'s published specification samples (fictitious data)' }),
    parties: t.expose('parties', { type: 'JSON' }),
    data: t.expose('data', { type: 'JSON', description: 'The form\'s fields as filed; shape per family in the OpenAPI document' }),
    citationUrl: t.loadable({
      type: 'String',
      nullable: true,
      description: 'The filing\'s primary document; null for a document that carries no accession number',
      load: (keys: string[], ctx) => documentCitations(ctx, keys),
      resolve: (f) => (f.accessionNumber && f.cik ? citationKey(f.cik, f.accessionNumber) : null),
    }),
    citationNullReason: t.string({ nullable: true, description: 'Why citationUrl is null; null when there is one', resolve: (f) => citationNullReason(f) }),
    entity: t.relation('entity', { nullable: true }),
  }),
});

builder.prismaObject('FilingEvent', {
  description: 'An event a filing discloses (8-K items, offerings, M&A signals).',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    cik: t.exposeString('cik', { nullable: true }),
    item: t.exposeString('item', { nullable: true, description: '8-K item number, e.g. 5.02' }),
    type: t.exposeString('type'),
    eventDate: t.expose('eventDate', { type: 'Date', nullable: true }),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    fromIndexOnly: t.exposeBoolean('fromIndexOnly', { description: 'True when only the filing index tells of the event (its document was not ingested): data then holds no content' }),
    confidence: t.exposeString('confidence', { nullable: true }),
    data: t.expose('data', { type: 'JSON' }),
    citationUrl: t.loadable({
      type: 'String',
      nullable: true,
      description: 'The filing\'s primary document where its index is held, else its index page; null when the document as ingested states no accession number',
      load: (keys: string[], ctx) => documentCitations(ctx, keys),
      resolve: (e) => (e.accessionNumber && e.cik ? citationKey(e.cik, e.accessionNumber) : null),
    }),
    citationNullReason: t.string({ nullable: true, description: 'Why citationUrl is null; null when there is one', resolve: (e) => (e.accessionNumber ? citationNullReason({ ...e, isSample: false }) : unfiledEventReason) }),
    sourceSpan: t.string({
      nullable: true,
      description: 'The sentence of the filing\'s document the event was read from, as the document states it (spaces collapsed), so that the reader can mark it; each vote proposal of `data.proposals` carries its own. Null with sourceSpanNullReason when no sentence states it',
      resolve: (e) => sourceSpanOf(e),
    }),
    sourceSpanNullReason: t.string({ nullable: true, description: 'Why sourceSpan is null (an item of tables or lists only, an event known from EDGAR\'s index only, …); null when there is one', resolve: (e) => sourceSpanNullReason(e) }),
    documentHeld: t.loadable({
      type: 'Boolean',
      description: 'Whether the service stores the filing\'s document, so that filing.render shows it (and marks sourceSpan); false for a filing known only from EDGAR\'s index',
      load: (accessions: string[], ctx: DataReader) => documentsHeld(ctx, accessions),
      resolve: (e) => e.accessionNumber ?? '',
    }),
    entity: t.relation('entity', { nullable: true }),
    filing: t.relation('filing', { nullable: true }),
  }),
});

builder.prismaObjectField('Entity', 'eventsWithoutFiling', (t) =>
  t.relatedConnection('events', {
    cursor: 'id',
    description:
      'Events read from this company\'s documents that name no filing: the document states no accession number and no index or submissions file held names it, so the event is neither cited nor opened in the reader (citationNullReason says why). Newest first.',
    query: () => ({ where: { accessionNumber: null }, orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }] }),
  }),
);

const dateRange = (from?: string | null, to?: string | null) =>
  from || to ? { orderedAt: { ...(from ? { gte: new Date(from) } : {}), ...(to ? { lte: new Date(to) } : {}) } } : {};

builder.queryFields((t) => ({
  forms: t.prismaConnection({
    type: 'FormRecord',
    cursor: 'id',
    description: 'Structured forms of a family, newest filed first.',
    defaultSize: 25,
    maxSize: maxPageSize,
    args: {
      family: t.arg.string({ required: true }),
      formType: t.arg.string(),
      cik: t.arg.string(),
      ticker: t.arg.string(),
      filedFrom: t.arg({ type: 'Date' }),
      filedTo: t.arg({ type: 'Date' }),
      includeSamples: t.arg.boolean({ defaultValue: false, description: 'Include the SEC\'s specification samples (fictitious data)' }),
      only: t.arg.stringList({ description: onlyRecords }),
    },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      return ctx.prisma.formRecord.findMany({
        ...query,
        where: {
          family: args.family,
          ...(args.formType ? { formType: args.formType } : {}),
          ...company,
          ...(args.includeSamples ? {} : { isSample: false }),
          ...(args.only ? { id: { in: args.only } } : {}),
          ...dateRange(args.filedFrom, args.filedTo),
        },
        orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
  form: t.prismaField({
    type: 'FormRecord',
    nullable: true,
    args: { id: t.arg.string({ required: true, description: 'Accession number or `doc_…` id' }), family: t.arg.string() },
    resolve: (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      return ctx.prisma.formRecord.findFirst({ ...query, where: { id: args.id, ...(args.family ? { family: args.family } : {}) } });
    },
  }),
  events: t.prismaConnection({
    type: 'FilingEvent',
    cursor: 'id',
    description: 'Events of one type, newest filed first.',
    defaultSize: 25,
    maxSize: maxPageSize,
    args: {
      type: t.arg.string({ required: true }),
      cik: t.arg.string(),
      ticker: t.arg.string(),
      filedFrom: t.arg({ type: 'Date' }),
      filedTo: t.arg({ type: 'Date' }),
      meetingType: t.arg.string({ description: 'voting_results only: annual or special' }),
      only: t.arg.stringList({ description: onlyRecords }),
    },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      return ctx.prisma.filingEvent.findMany({
        ...query,
        where: {
          type: args.type,
          ...company,
          ...dateRange(args.filedFrom, args.filedTo),
          ...(args.meetingType ? { data: { path: ['meetingType'], equals: args.meetingType } } : {}),
          ...(args.only ? { id: { in: args.only } } : {}),
        },
        orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
}));

const FilingAdded = builder.objectRef<{ accessionNumber: string; cik: string; form: string; tickers: string[]; eventId: string }>('FilingAddedEvent').implement({
  description: 'A filing was ingested.',
  fields: (t) => ({
    eventId: t.exposeString('eventId'),
    filing: t.prismaField({ type: 'Filing', resolve: (query, e, _args, ctx) => ctx.prisma.filing.findUniqueOrThrow({ ...query, where: { accessionNumber: e.accessionNumber } }) }),
  }),
});

builder.subscriptionFields((t) => ({
  filingAdded: t.field({
    type: FilingAdded,
    description: 'Filings as they are ingested, optionally only of a form, a CIK or a ticker.',
    args: { form: t.arg.string(), cik: t.arg.string(), ticker: t.arg.string() },
    subscribe: async function* (_root, args, ctx) {
      assertAccess(ctx.principal, 'authenticated');
      // the same forms of a CIK and a class ticker as every other read (CIK0000320193, BRK.B)
      const cik = args.cik ? (cikOf(args.cik) ?? args.cik) : undefined;
      const ticker = args.ticker ? (tickerOf(args.ticker) ?? args.ticker.toUpperCase()) : undefined;
      const abort = new AbortController();
      try {
        for await (const event of ctx.bus.subscribe(abort.signal)) {
          if (event.type !== 'filing.added') continue;
          const p = event.payload as { accessionNumber: string; cik: string; form: string; tickers: string[] };
          if ((args.form && p.form !== args.form) || (cik && p.cik !== cik) || (ticker && !p.tickers.includes(ticker))) continue;
          yield { ...p, eventId: event.id };
        }
      } finally {
        abort.abort();
      }
    },
    resolve: (event) => event,
  }),
}));
