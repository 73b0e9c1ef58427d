// Dilution records of a company (shares and float, cash and runway, warrants, convertibles,
// splits, offerings, 8-K compliance notices and securities sales), each with its verification.
import { requireDataAccess } from '../resolvers/access.ts';
import { dilutionCoverage, dilutionTables, ensureDilution } from '../resolvers/dilution/read.ts';
import { dilutionRulesVersion } from '../derived/dilution/materialize.ts';
import type { DataReader } from '../derived/dataCache.ts';
import type { DilutionRecord } from '../prisma/generated/client/client.ts';
import { scoreInputsOf } from '../derived/dilution/inputs.ts';
import { methodology, ratingsOf, scoreOf } from '../derived/dilution/score.ts';
import { ApiError } from '../core/errors.ts';
import { documentsHeld } from '../derived/citations.ts';
import { builder } from './builder.ts';
import { maxPageSize, requireCik } from './edgar.ts';

interface VerificationShape {
  accessionNumber: string | null;
  citationUrl: string | null;
  sourceSpan: string;
  confidence: string;
  method: string;
}

const Verification = builder.objectRef<VerificationShape>('DilutionVerification').implement({
  description: 'Where a dilution record came from and how sure its reading is.',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber', { nullable: true, description: 'The filing the values were read from' }),
    citationUrl: t.exposeString('citationUrl', { nullable: true, description: 'The SEC URL of that filing\'s document (its index page when the document is not known)' }),
    sourceSpan: t.exposeString('sourceSpan', { description: 'The XBRL tag and context (`dei:EntityPublicFloat, context instant 2024-06-30, unit USD`), or the sentence or item the values were read from' }),
    confidence: t.exposeString('confidence', { description: 'high (an XBRL fact, or a term the document states in a form the parser reads exactly), medium (a reading that may need a look, or an 8-K item known from EDGAR\'s index without its text), low' }),
    method: t.exposeString('method', { description: 'xbrl_fact, offering_document, eight_k_item or filing_index' }),
  }),
});

const DilutionRecordRef = builder.prismaObject('DilutionRecord', {
  description: 'One dilution record of a company: an observation (shares outstanding, public float, cash, warrants or convertibles outstanding) or an event (offering, ATM program, shelf, reverse split, compliance notice, securities sale), with its verification.',
  fields: (t) => ({
    id: t.exposeString('id', { description: '`dil_…`, stable across re-ingests of the same source' }),
    cik: t.exposeString('cik'),
    kind: t.exposeString('kind', { description: 'shares_outstanding, public_float, cash_position, warrant, convertible, reverse_split, stock_split, offering, atm_program, shelf, lockup, rofr, compliance_notice or corporate_action' }),
    isEvent: t.exposeBoolean('isEvent', { description: 'An event (listed by /v1/dilution/events) rather than an observation' }),
    date: t.expose('date', { type: 'Date', nullable: true, description: 'The observation date (an XBRL context\'s end) or the event date; null when the source states none' }),
    accessionNumber: t.exposeString('accessionNumber', { nullable: true }),
    form: t.exposeString('form', { nullable: true }),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true }),
    fromIndexOnly: t.exposeBoolean('fromIndexOnly', { description: 'Only EDGAR\'s index tells of it: its document was not ingested, so values hold no terms' }),
    values: t.expose('values', { type: 'JSON', description: 'The values, shaped per kind (see the OpenAPI document)' }),
    documentHeld: t.loadable({
      type: 'Boolean',
      description: 'Whether the service stores the document of the filing the record was read from, so that filing.render shows it; false for a filing known only from EDGAR\'s index or its XBRL facts',
      load: (accessions: string[], ctx: DataReader) => documentsHeld(ctx, accessions),
      resolve: (r) => r.accessionNumber ?? '',
    }),
    verification: t.field({
      type: Verification,
      resolve: (r) => ({ accessionNumber: r.accessionNumber, citationUrl: r.citationUrl, sourceSpan: r.sourceSpan, confidence: r.confidence, method: r.method }),
    }),
  }),
});

interface CoverageShape {
  cik: string;
  builtAt: Date;
  tables: { table: string; kinds: string[]; rows: number; verifiedRows: number; indexOnlyRows: number; latestDate: string | null }[];
}

const TableCoverageRef = builder.objectRef<CoverageShape['tables'][number]>('DilutionTableCoverage').implement({
  description: 'What the service holds of one dilution table for a company.',
  fields: (t) => ({
    table: t.exposeString('table', { description: 'The route under /v1/dilution that lists it' }),
    kinds: t.exposeStringList('kinds'),
    rows: t.exposeInt('rows'),
    verifiedRows: t.exposeInt('verifiedRows', { description: 'Rows of confidence high' }),
    indexOnlyRows: t.exposeInt('indexOnlyRows', { description: 'Rows known from EDGAR\'s index alone (no terms)' }),
    latestDate: t.exposeString('latestDate', { nullable: true, description: 'The latest observation or event date (YYYY-MM-DD)' }),
  }),
});

const CoverageRef = builder.objectRef<CoverageShape>('DilutionCoverage').implement({
  description: 'Per dilution table: rows, verified rows and the latest observation date.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    builtAt: t.field({ type: 'DateTime', resolve: (c) => c.builtAt }),
    rulesVersion: t.int({ resolve: () => dilutionRulesVersion }),
    tables: t.field({ type: [TableCoverageRef], resolve: (c) => c.tables }),
  }),
});

const EventDetail = builder.objectRef<{ event: DilutionRecord }>('DilutionEventDetail').implement({
  description: 'A dilution event and the instruments linked to it (the other records read from the same filing).',
  fields: (t) => ({
    event: t.field({ type: DilutionRecordRef, resolve: ({ event }) => event }),
    linked: t.prismaField({
      type: ['DilutionRecord'],
      resolve: (query, { event }, _args, ctx) =>
        event.accessionNumber
          ? ctx.prisma.dilutionRecord.findMany({ ...query, where: { cik: event.cik, accessionNumber: event.accessionNumber, id: { not: event.id } }, orderBy: [{ kind: 'asc' }, { id: 'asc' }] })
          : Promise.resolve([]),
    }),
  }),
});

interface ScoreShape {
  cik: string;
  asOf: string | null;
  result: unknown;
}

const ScoreRef = builder.objectRef<ScoreShape>('DilutionScoreResult').implement({
  description: 'The dilution score of a company by the documented method (derived/dilution/score.ts), as of the latest date its records hold.',
  fields: (t) => ({
    cik: t.exposeString('cik'),
    asOf: t.exposeString('asOf', { nullable: true, description: 'The latest observation or event date among the records read (the score never reads the clock); null when none is held' }),
    methodology: t.field({ type: 'JSON', description: 'Weights, bands, rules and the methodology version', resolve: () => methodology }),
    result: t.expose('result', { type: 'JSON', description: 'score, band, confidence, coverage, weightsApplied, ratings, inputs (each with its source or marked missing), missing, reasons' }),
    documentsHeld: t.stringList({
      description: 'The accession numbers of the filings the inputs were read from whose documents the service stores (filing.render shows them)',
      resolve: async ({ result }, _args, ctx) => {
        const inputs = Object.values((result as { inputs?: Record<string, { source?: { accessionNumber?: string | null } }> }).inputs ?? {});
        const accessions = [...new Set(inputs.map((i) => i.source?.accessionNumber).filter((a): a is string => Boolean(a)))];
        const held = await documentsHeld(ctx, accessions);
        return accessions.filter((_, i) => held[i]);
      },
    }),
  }),
});

/** A company's records and whether its filing index is held: what the score reads. */
async function scoreInputs(ctx: DataReader, args: { ticker?: string | null; cik?: string | null }) {
  const cik = await requireCik(ctx, args);
  await ensureDilution(ctx, cik);
  const [records, entity] = await Promise.all([ctx.prisma.dilutionRecord.findMany({ where: { cik } }), ctx.prisma.entity.findUnique({ where: { cik }, select: { hasSubmissions: true } })]);
  return { cik, ...scoreInputsOf(records, entity?.hasSubmissions ?? false) };
}

const tableNames = dilutionTables.map((t) => t.table);

builder.queryFields((t) => ({
  dilutionRecords: t.prismaConnection({
    type: 'DilutionRecord',
    cursor: 'id',
    description: 'A company\'s dilution records of one table (or its events), newest first.',
    defaultSize: 25,
    maxSize: maxPageSize,
    args: {
      ticker: t.arg.string(),
      cik: t.arg.string(),
      table: t.arg.string({ description: `One of ${tableNames.join(', ')}` }),
      eventsOnly: t.arg.boolean({ defaultValue: false, description: 'Only events (offerings, ATM programs, shelves, issuances, reverse splits, compliance notices, securities sales)' }),
    },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const cik = await requireCik(ctx, args);
      const table = args.table ? dilutionTables.find((x) => x.table === args.table) : null;
      if (args.table && !table) throw new ApiError('invalid_query_parameter', `table must be one of ${tableNames.join(', ')}.`, { details: { parameter: 'table', acceptedValues: tableNames } });
      await ensureDilution(ctx, cik);
      return ctx.prisma.dilutionRecord.findMany({
        ...query,
        where: { cik, ...(table ? { kind: { in: table.kinds } } : {}), ...(args.eventsOnly ? { isEvent: true } : {}) },
        orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      });
    },
  }),
  dilutionEvent: t.field({
    type: EventDetail,
    nullable: true,
    description: 'One dilution event, with the records linked to it; null when no such event is held (or it is another company\'s).',
    args: { id: t.arg.string({ required: true }), ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const [cik, event] = await Promise.all([args.ticker || args.cik ? requireCik(ctx, args) : null, ctx.prisma.dilutionRecord.findUnique({ where: { id: args.id } })]);
      if (!event || !event.isEvent || (cik && event.cik !== cik)) return null;
      return { event };
    },
  }),
  dilutionScore: t.field({
    type: ScoreRef,
    description: 'The composite dilution score (0–100, higher = more risk), its band and confidence, every input with its source or marked missing.',
    args: { ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const { cik, asOf, inputs, why } = await scoreInputs(ctx, args);
      return { cik, asOf, result: scoreOf(inputs, why) };
    },
  }),
  dilutionRatings: t.field({
    type: ScoreRef,
    description: 'The sub-ratings (offering ability, cash need, overhang, float growth, compliance), each with its band, score and reasons.',
    args: { ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const { cik, asOf, inputs, why } = await scoreInputs(ctx, args);
      return { cik, asOf, result: ratingsOf(inputs, why) };
    },
  }),
  dilutionCoverage: t.field({
    type: CoverageRef,
    description: 'Per dilution table: rows held, verified rows and the latest observation date, for one company.',
    args: { ticker: t.arg.string(), cik: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      const cik = await requireCik(ctx, args);
      return { cik, ...(await dilutionCoverage(ctx, cik)) };
    },
  }),
}));
