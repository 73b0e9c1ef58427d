// Entities, filings and their sections.
import { requireDataAccess } from '../resolvers/access.ts';
import { isoDay, citationUrl } from '../derived/citations.ts';
import type { Prisma } from '../prisma/generated/client/client.ts';
import { cikFor, cikOf, ciksFor, resolveEntity, tickerOf, type MatchSource, type Resolution } from '../resolvers/entities.ts';
import { latestFiling, latestSection } from '../resolvers/latest.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';

/** An entity's tickers: those its own submissions give, then the ticker maps' others. */
export const entityTickers = (own: readonly string[], listed: readonly string[]) => [...new Set([...own, ...listed])];

export const EntityRef = builder.prismaObject('Entity', {
  description: 'A party known to EDGAR (issuer, fund, manager or insider), keyed by its CIK.',
  fields: (t) => ({
    cik: t.exposeString('cik', { description: '10-digit Central Index Key' }),
    name: t.exposeString('name'),
    kind: t.exposeString('kind', { description: 'issuer, fund, manager, insider or other' }),
    entityType: t.exposeString('entityType', { nullable: true }),
    sic: t.exposeString('sic', { nullable: true }),
    sicDescription: t.exposeString('sicDescription', { nullable: true }),
    stateOfIncorporation: t.exposeString('stateOfIncorporation', { nullable: true }),
    fiscalYearEnd: t.exposeString('fiscalYearEnd', { nullable: true, description: 'MMDD' }),
    tickers: t.stringList({
      description: 'Every ticker the sources the service holds give it: its own submissions and the SEC ticker maps',
      // the listings in one order, whichever way they are read (catalogue/filingsData.ts reads them too)
      select: { tickers: true, listings: { select: { ticker: true }, orderBy: [{ ticker: 'asc' }, { source: 'asc' }] } },
      resolve: (e) => entityTickers(e.tickers, e.listings.map((l) => l.ticker)),
    }),
    exchanges: t.exposeStringList('exchanges'),
    filingsCovered: t.exposeBoolean('hasSubmissions', { description: 'Whether EDGAR\'s filing index of this entity was ingested; without it the filings below are only those other sources named.' }),
    filings: t.relatedConnection('filings', {
      cursor: 'accessionNumber',
      args: { form: t.arg.string() },
      query: (args) => ({ where: args.form ? { form: args.form } : {}, orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }] }),
      description: 'Filings, newest first.',
    }),
  }),
});

export const FilingRef = builder.prismaObject('Filing', {
  description: 'A filing: its index metadata, and its sections when its document was ingested.',
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber'),
    cik: t.exposeString('cik'),
    form: t.exposeString('form'),
    filedAt: t.expose('filedAt', { type: 'Date', nullable: true, description: 'Null only for a filing known from its own document, which does not state its filing date' }),
    acceptedAt: t.expose('acceptedAt', { type: 'DateTime', nullable: true }),
    reportDate: t.expose('reportDate', { type: 'Date', nullable: true, description: 'Period of report, or date of the event for an 8-K' }),
    items: t.exposeStringList('items', { description: '8-K item numbers' }),
    primaryDocument: t.exposeString('primaryDocument', { nullable: true }),
    primaryDocDescription: t.exposeString('primaryDocDescription', { nullable: true }),
    citationUrl: t.string({ resolve: (f) => citationUrl(f.cik, f.accessionNumber, f.primaryDocument) }),
    documentIngested: t.boolean({ description: 'Whether the filing\'s own document was ingested (sections, events and structured data come from it)', resolve: (f) => f.documentSourceKey !== null }),
    entity: t.relation('entity'),
    sections: t.relation('sections', { query: { orderBy: { ordinal: 'asc' } }, description: 'Sections of the document, in order (empty when the document was not ingested)' }),
    events: t.relation('events', { description: 'Events the filing discloses (8-K items, offerings, M&A signals)' }),
  }),
});

builder.prismaObject('Section', {
  description: 'A section of a filing\'s document, e.g. item_1a (Risk Factors) of a 10-K.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'item_1a, item_7, part1_item2, …' }),
    title: t.exposeString('title'),
    text: t.exposeString('text'),
    charCount: t.exposeInt('charCount'),
    ordinal: t.exposeInt('ordinal'),
    filing: t.relation('filing'),
  }),
});

const MatchSourceRef = builder.objectRef<MatchSource>('MatchSource').implement({
  description: 'A source that names the entity for the identifier.',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'company_tickers, company_tickers_exchange, submissions or name' }),
    asOf: t.exposeString('asOf', { nullable: true, description: 'When the service read that source' }),
  }),
});

export const EntityMatch = builder.objectRef<Resolution>('EntityMatch').implement({
  description: 'An entity an identifier resolved to, with how and how surely.',
  fields: (t) => ({
    matchedBy: t.exposeString('matchedBy', { description: 'ticker, cik, name_exact, name_prefix or name_contains' }),
    confidence: t.exposeFloat('confidence', { description: '1 for a ticker or CIK all sources agree on; less when sources disagree, and for a name' }),
    sources: t.field({ type: [MatchSourceRef], resolve: (m) => m.sources }),
    lastFiledAt: t.exposeString('lastFiledAt', { nullable: true, description: 'The entity\'s latest filing the service holds' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why the match ranks where it does, when it is not certain' }),
    entity: t.prismaField({ type: 'Entity', resolve: (query, m, _args, ctx) => ctx.prisma.entity.findUniqueOrThrow({ ...query, where: { cik: m.cik } }) }),
  }),
});

const byName = [{ name: 'asc' as const }, { cik: 'asc' as const }];

const EntityPage = builder.objectRef<{ where: Prisma.EntityWhereInput; offset: number; limit: number; ticker: string | null }>('EntityPage').implement({
  description: 'A page of entities (offset pagination): those the searched ticker names first, then by name.',
  fields: (t) => ({
    offset: t.exposeInt('offset'),
    limit: t.exposeInt('limit'),
    total: t.int({ resolve: (p, _args, ctx) => ctx.prisma.entity.count({ where: p.where }) }),
    items: t.prismaField({
      type: ['Entity'],
      resolve: async (query, p, _args, ctx) => {
        const named = p.ticker
          ? (await ctx.prisma.entity.findMany({ where: { AND: [p.where, { OR: [{ tickers: { has: p.ticker } }, { listings: { some: { ticker: p.ticker } } }] }] }, select: { cik: true }, orderBy: byName })).map((e) => e.cik)
          : [];
        const first = named.slice(p.offset, p.offset + p.limit);
        const take = p.limit - first.length;
        const rest = take > 0 ? await ctx.prisma.entity.findMany({ where: { AND: [p.where, { cik: { notIn: named } }] }, select: { cik: true }, orderBy: byName, skip: Math.max(0, p.offset - named.length), take }) : [];
        const ciks = [...first, ...rest.map((e) => e.cik)];
        const rows = new Map((await ctx.prisma.entity.findMany({ ...query, where: { cik: { in: ciks } } })).map((e) => [e.cik, e]));
        return ciks.map((cik) => rows.get(cik)!);
      },
    }),
  }),
});

export const maxPageSize = 100;

/** `only`: the list restricted to these records (a monitor asks what its saved query says of the records just added). */
export const onlyRecords = 'Only these records (accession numbers, or record ids): what a monitor asks of records just ingested';

function pageSize(limit: number | null | undefined, name = 'limit') {
  const size = limit ?? 25;
  if (!Number.isInteger(size) || size < 1 || size > maxPageSize) {
    throw new ApiError('invalid_query_parameter', `${name} must be 1 to ${maxPageSize}.`, { details: { parameter: name } });
  }
  return size;
}

builder.queryFields((t) => ({
  entities: t.field({
    type: EntityPage,
    description: 'Search entities by name, ticker or CIK, ordered by name (offset pagination).',
    args: { query: t.arg.string(), kind: t.arg.string(), offset: t.arg.int(), limit: t.arg.int() },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      const q = args.query?.trim();
      const ticker = q ? tickerOf(q) : null;
      const cik = q ? cikOf(q) : null;
      const where = {
        ...(args.kind ? { kind: args.kind } : {}),
        ...(q
          ? {
              OR: [
                { name: { contains: q, mode: 'insensitive' as const } },
                ...(ticker ? [{ tickers: { has: ticker } }, { listings: { some: { ticker } } }] : []),
                ...(cik ? [{ cik }] : []),
              ],
            }
          : {}),
      };
      return { where, offset: args.offset ?? 0, limit: pageSize(args.limit), ticker };
    },
  }),
  entity: t.prismaField({
    type: 'Entity',
    nullable: true,
    args: { cik: t.arg.string(), ticker: t.arg.string() },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const cik = await cikFor(ctx, args);
      return cik ? ctx.prisma.entity.findUnique({ ...query, where: { cik } }) : null;
    },
  }),
  resolveEntity: t.field({
    type: [EntityMatch],
    description: 'Resolve a ticker, CIK or name to entities, best match first.',
    args: { identifier: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      requireDataAccess(ctx);
      return resolveEntity(ctx.prisma, args.identifier);
    },
  }),
  filing: t.prismaField({
    type: 'Filing',
    nullable: true,
    args: { accessionNumber: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      return ctx.prisma.filing.findUnique({ ...query, where: { accessionNumber: args.accessionNumber } });
    },
  }),
  filings: t.prismaConnection({
    type: 'Filing',
    cursor: 'accessionNumber',
    description: 'Filings ordered by acceptance time, newest first.',
    defaultSize: 25,
    maxSize: maxPageSize,
    args: {
      cik: t.arg.string(),
      ticker: t.arg.string(),
      form: t.arg.string(),
      item: t.arg.string({ description: '8-K item number, e.g. 2.02' }),
      filedFrom: t.arg({ type: 'Date' }),
      filedTo: t.arg({ type: 'Date' }),
      only: t.arg.stringList({ description: onlyRecords }),
    },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const company = await companyFilter(ctx, args);
      return ctx.prisma.filing.findMany({
        ...query,
        where: {
          ...company,
          ...(args.form ? { form: args.form } : {}),
          ...(args.item ? { items: { has: args.item } } : {}),
          ...(args.only ? { accessionNumber: { in: args.only } } : {}),
          ...(args.filedFrom || args.filedTo ? { filedAt: { ...(args.filedFrom ? { gte: new Date(args.filedFrom) } : {}), ...(args.filedTo ? { lte: new Date(args.filedTo) } : {}) } } : {}),
        },
        orderBy: [{ orderedAt: 'desc' }, { accessionNumber: 'desc' }],
      });
    },
  }),
}));


const LatestSection = builder.objectRef<{ section: { accessionNumber: string; key: string }; filing: { accessionNumber: string } }>('LatestSection').implement({
  description: 'A section of the newest filing of a form.',
  fields: (t) => ({
    // the key's two fields only: latestSection hands over the whole row, which Prisma refuses as a where
    section: t.prismaField({ type: 'Section', resolve: (query, r, _args, ctx) => ctx.prisma.section.findUniqueOrThrow({ ...query, where: { accessionNumber_key: { accessionNumber: r.section.accessionNumber, key: r.section.key } } }) }),
    filing: t.prismaField({ type: 'Filing', resolve: (query, r, _args, ctx) => ctx.prisma.filing.findUniqueOrThrow({ ...query, where: { accessionNumber: r.filing.accessionNumber } }) }),
  }),
});

/** The filter of a list read by ticker or CIK: every CIK the ticker has named; 404 for an unknown one. */
export async function companyFilter(ctx: Parameters<typeof ciksFor>[0], args: { ticker?: string | null; cik?: string | null }): Promise<{ cik?: { in: string[] } }> {
  if (!args.ticker && !args.cik) return {};
  const ciks = await ciksFor(ctx, args);
  if (!ciks) throw new ApiError('entity_not_found', `No entity with ${args.ticker ? `ticker ${args.ticker}` : `CIK ${args.cik}`} is known.`, { details: { parameter: args.ticker ? 'ticker' : 'cik' } });
  return { cik: { in: ciks } };
}

export async function requireCik(ctx: Parameters<typeof cikFor>[0], args: { ticker?: string | null; cik?: string | null }) {
  if (!args.ticker && !args.cik) throw new ApiError('invalid_query_parameter', 'Name the company with ticker or cik.', { details: { parameter: 'ticker', acceptedValues: ['ticker', 'cik'] } });
  const cik = await cikFor(ctx, args);
  if (!cik) throw new ApiError('entity_not_found', `No entity with ${args.ticker ? `ticker ${args.ticker}` : `CIK ${args.cik}`} is known.`);
  return cik;
}

builder.queryFields((t) => ({
  filingSection: t.prismaField({
    type: 'Section',
    nullable: true,
    description: 'A section of a filing named by accession number.',
    args: { accessionNumber: t.arg.string({ required: true }), key: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      return ctx.prisma.section.findUnique({ ...query, where: { accessionNumber_key: { accessionNumber: args.accessionNumber, key: args.key } } });
    },
  }),
  latestFiling: t.prismaField({
    type: 'Filing',
    description: 'The newest filing of a form by a company, as EDGAR\'s index knows it (its document may not be ingested: see documentIngested).',
    args: { ticker: t.arg.string(), cik: t.arg.string(), form: t.arg.string({ defaultValue: '10-K' }) },
    resolve: async (query, _root, args, ctx) => {
      requireDataAccess(ctx);
      const filing = await latestFiling(ctx.prisma, await requireCik(ctx, args), args.form ?? '10-K');
      return ctx.prisma.filing.findUniqueOrThrow({ ...query, where: { accessionNumber: filing.accessionNumber } });
    },
  }),
  latestSection: t.field({
    type: LatestSection,
    description: 'A section of the newest filing of a form. When that filing\'s document was not ingested the answer is an error that says so and names the newest ingested filing with the section.',
    args: { ticker: t.arg.string(), cik: t.arg.string(), form: t.arg.string({ defaultValue: '10-K' }), key: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      requireDataAccess(ctx);
      return latestSection(ctx.prisma, await requireCik(ctx, args), args.form ?? '10-K', args.key);
    },
  }),
}));

