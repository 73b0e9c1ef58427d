// Entities, filings and sections (SPEC 4.5).
import { z } from 'zod';
import { EntitiesDocument, FilingByAccessionDocument, FilingSectionDocument, FilingsDocument, LatestFilingDocument, LatestSectionDocument, ResolveEntityDocument, type EntityFieldsFragment, type FilingFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, inView, oneOfRequired, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';
import { filingsData } from '../filingsData.ts';

const entity = z.object({
  object: z.literal('entity'),
  cik: z.string(),
  name: z.string(),
  kind: z.string(),
  entityType: z.string().nullable(),
  sic: z.string().nullable(),
  sicDescription: z.string().nullable(),
  stateOfIncorporation: z.string().nullable(),
  fiscalYearEnd: z.string().nullable(),
  tickers: z.array(z.string()),
  exchanges: z.array(z.string()),
  filingsCovered: z.boolean(),
}).partial().required({ object: true, cik: true, name: true });

const matchSource = z.object({ source: z.string().describe('company_tickers, company_tickers_exchange, submissions or name'), asOf: z.string().nullable() });

const filing = z.object({
  object: z.literal('filing'),
  accessionNumber: z.string(),
  cik: z.string(),
  companyName: z.string(),
  tickers: z.array(z.string()),
  form: z.string(),
  filedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  reportDate: z.string().nullable(),
  items: z.array(z.string()),
  primaryDocument: z.string().nullable(),
  primaryDocDescription: z.string().nullable(),
  documentIngested: z.boolean(),
  citationUrl: z.string(),
}).partial().required({ object: true, accessionNumber: true, form: true, filedAt: true, citationUrl: true });

const toEntity = (e: EntityFieldsFragment, view: View) =>
  inView(view, { object: 'entity' as const, ...e }, { always: ['object', 'cik', 'name'], compact: ['tickers', 'kind'], agent: ['tickers', 'kind', 'sicDescription'] });

export const toFiling = (f: FilingFieldsFragment, view: View) => {
  const { entity, ...rest } = f;
  return inView(
    view,
    { object: 'filing' as const, ...rest, companyName: entity.name, tickers: entity.tickers },
    { always: ['object', 'accessionNumber', 'form', 'filedAt', 'citationUrl'], compact: ['companyName'], agent: ['reportDate', 'items', 'companyName', 'documentIngested'] },
  );
};

const companyParams = { ticker: tickerParam, cik: cikParam };

export const accessionParam = z.string().regex(/^\d{10}-\d{2}-\d{6}$/, 'expected an accession number like 0000320193-24-000123');
const sectionKeyParam = z.string().regex(/^(item_\d{1,2}[a-c]?|part[12]_item\d[a]?|letter(_\d{1,2})?)$/, 'expected a section key like item_1a, item_7, part1_item2 or (a fund report\'s letter) letter_1');
const maxCharsParam = z.coerce.number().int().min(100).max(2_000_000).optional().describe('Cut the text to this many characters (the answer says when it did); the agent view cuts at 20,000 unless told');

const sectionResponse = z.object({
  object: z.literal('section'),
  key: z.string(),
  title: z.string(),
  text: z.string(),
  charCount: z.number().int(),
  truncated: z.boolean(),
  filing,
  requestId: z.string(),
});

function sectionBody(section: { key: string; title: string; text: string; charCount: number }, owner: FilingFieldsFragment, query: { view: View; max_chars?: number }, meta: { requestId: string }) {
  const limit = query.max_chars ?? (query.view === 'agent' ? 20_000 : undefined);
  const truncated = limit !== undefined && section.text.length > limit;
  return {
    object: 'section' as const,
    key: section.key,
    title: section.title,
    text: truncated ? section.text.slice(0, limit) : section.text,
    charCount: section.charCount,
    truncated,
    filing: toFiling(owner, query.view === 'default' ? 'default' : 'compact'),
    ...meta,
  };
}

export const edgarRoutes = [
  operationRoute({
    name: 'entities_search',
    method: 'GET',
    path: '/v1/entities',
    summary: 'Search canonical entities (issuers, managers, insiders, funds)',
    description: 'Offset pagination: `offset` (0 to 10,000) and `limit` (1 to 100). Ordered by name.',
    tag: 'Entities',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: z.strictObject({
        q: z.string().min(1).max(200).optional().describe('Name, ticker or CIK'),
        kind: z.enum(['issuer', 'fund', 'manager', 'insider', 'other']).optional(),
        offset: z.coerce.number().int().min(0).max(10_000).default(0),
        limit: pageParams.limit,
        view: viewParam,
      }),
    },
    response: z.object({ object: z.literal('list'), data: z.array(entity), total: z.number().int(), offset: z.number().int(), limit: z.number().int(), hasMore: z.boolean(), coverage: coverageSchema, requestId: z.string() }),
    operation: EntitiesDocument,
    variables: ({ query }) => ({ query: query.q ?? null, kind: query.kind ?? null, offset: query.offset, limit: query.limit }),
  }).reshape(({ entities }, meta, { query }) => ({
    object: 'list',
    data: entities.items.map((e) => toEntity(e, query.view)),
    total: entities.total,
    offset: entities.offset,
    limit: entities.limit,
    hasMore: entities.offset + entities.items.length < entities.total,
    coverage: coverage(`entities${query.q ? ` matching "${query.q}"` : ''}${query.kind ? ` of kind ${query.kind}` : ''}`),
    ...meta,
  })),
  operationRoute({
    name: 'entities_edgar_search',
    method: 'GET',
    path: '/v1/entities/edgar',
    summary: 'Search EDGAR entity records by name, ticker, CIK or identifier',
    description: 'The regulator\'s record of each match: SIC code, state of incorporation, fiscal year end, tickers and exchanges.',
    tag: 'Entities',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { query: z.strictObject({ q: z.string().min(1).max(200).describe('Name, ticker or CIK'), limit: pageParams.limit, view: viewParam }) },
    response: z.object({ object: z.literal('list'), data: z.array(entity), total: z.number().int(), hasMore: z.boolean(), coverage: coverageSchema, requestId: z.string() }),
    operation: EntitiesDocument,
    variables: ({ query }) => ({ query: query.q, kind: null, offset: 0, limit: query.limit }),
  }).reshape(({ entities }, meta, { query }) => ({
    object: 'list',
    data: entities.items.map((e) => toEntity(e, query.view === 'compact' ? 'compact' : 'default')),
    total: entities.total,
    hasMore: entities.items.length < entities.total,
    coverage: coverage(`EDGAR entity records matching "${query.q}"`),
    ...meta,
  })),
  operationRoute({
    name: 'entities_resolve',
    method: 'GET',
    path: '/v1/entities/resolve',
    summary: 'Resolve one entity from a ticker, CIK or name, with match confidence',
    tag: 'Entities',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    description:
      'Every source the service holds is asked: both SEC ticker maps, the issuers\' submissions (tickers, former names) and the filings held. When they disagree (a ticker that moved to a new company), the best match has a lower confidence, `reason` says why, and the others are `alternatives` with their sources. Accepts `CIK0000320193`, padded or bare CIKs, and class tickers written BRK.B, BRK/B or BRK-B. `ticker` and `cik` are synonyms of `identifier`.',
    params: {
      query: oneOfRequired(
        {
          identifier: z.string().min(1).max(200).optional().describe('Ticker (AAPL), CIK (320193) or company name'),
          ticker: z.string().min(1).max(20).optional().describe('Synonym of identifier'),
          cik: z.string().min(1).max(20).optional().describe('Synonym of identifier'),
          view: viewParam,
        },
        ['identifier', 'ticker', 'cik'],
        { exactlyOne: true },
      ),
    },
    response: z.object({
      object: z.literal('entity_resolution'),
      identifier: z.string(),
      matchedBy: z.string(),
      confidence: z.number(),
      sources: z.array(matchSource),
      lastFiledAt: z.string().nullable(),
      reason: z.string().nullable().describe('Why the match is not certain, when it is not'),
      entity,
      alternatives: z.array(z.object({ matchedBy: z.string(), confidence: z.number(), sources: z.array(matchSource), lastFiledAt: z.string().nullable(), reason: z.string().nullable(), entity })),
      requestId: z.string(),
    }),
    errors: ['entity_not_found'],
    operation: ResolveEntityDocument,
    variables: ({ query }) => ({ identifier: (query.identifier ?? query.ticker ?? query.cik)! }),
  }).reshape(({ resolveEntity }, meta, { query }) => {
    const identifier = (query.identifier ?? query.ticker ?? query.cik)!;
    const [best, ...rest] = resolveEntity;
    if (!best) throw new ApiError('entity_not_found', `Nothing known matches "${identifier}".`, { details: { identifier } });
    return {
      object: 'entity_resolution',
      identifier,
      matchedBy: best.matchedBy,
      confidence: best.confidence,
      sources: best.sources,
      lastFiledAt: best.lastFiledAt ?? null,
      reason: best.reason ?? null,
      entity: toEntity(best.entity, query.view),
      alternatives: rest.map((m) => ({ matchedBy: m.matchedBy, confidence: m.confidence, sources: m.sources, lastFiledAt: m.lastFiledAt ?? null, reason: m.reason ?? null, entity: toEntity(m.entity, 'compact') })),
      ...meta,
    };
  }),
  operationRoute({
    name: 'filings_search',
    method: 'GET',
    path: '/v1/filings',
    summary: 'Search filings, newest accepted first',
    tag: 'Filings',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { query: z.strictObject({ ...companyParams, form: z.string().min(1).max(20).optional().describe('Form type as filed, e.g. 10-K, 8-K, 4'), item: z.string().regex(/^\d{1,2}\.\d{2}$/, 'expected an 8-K item number like 2.02').optional().describe('Only filings reporting this 8-K item, e.g. 2.02 (results of operations)'), ...dateFilters, ...pageParams, view: viewParam }) },
    response: listEnvelope(filing).extend({ coverage: coverageSchema }),
    operation: FilingsDocument,
    data: filingsData,
    watch: { records: 'filing', restrict: 'only' },
    variables: ({ query }) => ({ cik: query.cik ?? null, ticker: query.ticker ?? null, form: query.form ?? null, item: query.item ?? null, filedFrom: query.filed_from ?? null, filedTo: query.filed_to ?? null, first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ filings }, meta, { query }) => ({
    object: 'list',
    data: filings.nodes.map((f) => toFiling(f, query.view)),
    hasMore: filings.pageInfo.hasNextPage,
    nextCursor: filings.pageInfo.hasNextPage ? filings.pageInfo.endCursor : null,
    coverage: coverage(['filings', query.ticker && `of ${query.ticker}`, query.cik && `of CIK ${query.cik}`, query.form && `of form ${query.form}`, query.item && `reporting item ${query.item}`, query.filed_from && `from ${query.filed_from}`, query.filed_to && `to ${query.filed_to}`].filter(Boolean).join(' ')),
    ...meta,
  })),
  operationRoute({
    name: 'filings_latest',
    method: 'GET',
    path: '/v1/filings/latest',
    summary: 'The latest filing of a form by a company, with its section manifest',
    description: '"Latest" is the newest filing EDGAR\'s index knows. `documentIngested: false` says its document (and so its sections) is not held.',
    tag: 'Filings',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { query: oneOfRequired({ ...companyParams, form: z.string().min(1).max(20).default('10-K'), view: viewParam }, ['ticker', 'cik']) },
    response: filing.extend({ sections: z.array(z.object({ key: z.string(), title: z.string(), charCount: z.number().int() })).optional(), requestId: z.string() }),
    errors: ['entity_not_found', 'filing_not_found'],
    operation: LatestFilingDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, form: query.form }),
  }).reshape(({ latestFiling }, meta, { query }) => {
    const { sections, ...rest } = latestFiling;
    return { ...toFiling(rest, query.view), ...(query.view === 'compact' ? {} : { sections }), ...meta };
  }),
  operationRoute({
    name: 'filings_latest_section',
    method: 'GET',
    path: '/v1/filings/latest/sections/{section_key}',
    summary: 'A section of the latest filing, e.g. item_1a (Risk Factors) of the latest 10-K',
    description:
      'When the latest filing\'s document was not ingested this is 404 `section_not_found` with `details.reason: "document_not_ingested"`, `details.latestFiling` and `details.ingestedFilingWithSection` (the newest ingested filing that has the section), never an older filing passed off as the latest.',
    tag: 'Filings',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      path: z.strictObject({ section_key: sectionKeyParam }),
      query: oneOfRequired({ ...companyParams, form: z.string().min(1).max(20).default('10-K'), max_chars: maxCharsParam, view: viewParam }, ['ticker', 'cik']),
    },
    response: sectionResponse,
    errors: ['entity_not_found', 'filing_not_found', 'section_not_found'],
    operation: LatestSectionDocument,
    variables: ({ path, query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, form: query.form, key: path.section_key }),
  }).reshape(({ latestSection }, meta, { query }) => sectionBody(latestSection.section, latestSection.filing, query, meta)),
  operationRoute({
    name: 'filings_section_get',
    method: 'GET',
    path: '/v1/filings/{accession_number}/sections/{section_key}',
    summary: 'A section of a filing named by accession number',
    tag: 'Filings',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { path: z.strictObject({ accession_number: accessionParam, section_key: sectionKeyParam }), query: z.strictObject({ max_chars: maxCharsParam, view: viewParam }) },
    response: sectionResponse,
    errors: ['filing_not_found', 'section_not_found'],
    operation: FilingSectionDocument,
    variables: ({ path }) => ({ accessionNumber: path.accession_number, key: path.section_key }),
  }).reshape(({ filing, filingSection }, meta, { path, query }) => {
    if (!filing) throw new ApiError('filing_not_found', `No filing ${path.accession_number} is in the filings this service has indexed.`);
    if (!filingSection) {
      const reason = filing.documentIngested ? 'not_in_document' : 'document_not_ingested';
      throw new ApiError('section_not_found', filing.documentIngested ? `Filing ${filing.accessionNumber} has no section ${path.section_key}.` : `The document of filing ${filing.accessionNumber} has not been ingested, so its sections cannot be served.`, {
        details: { reason, acceptedValues: filing.sections.map((s) => s.key) },
      });
    }
    const { sections: _sections, ...filingFields } = filing;
    return sectionBody(filingSection, filingFields, query, meta);
  }),
  operationRoute({
    name: 'filings_get',
    method: 'GET',
    path: '/v1/filings/{accession_number}',
    summary: 'One filing by accession number, with its section manifest',
    tag: 'Filings',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: { path: z.strictObject({ accession_number: accessionParam }), query: z.strictObject({ view: viewParam }) },
    response: filing.extend({ sections: z.array(z.object({ key: z.string(), title: z.string(), charCount: z.number().int() })).optional(), requestId: z.string() }),
    errors: ['filing_not_found'],
    operation: FilingByAccessionDocument,
    variables: ({ path }) => ({ accessionNumber: path.accession_number }),
  }).reshape(({ filing: found }, meta, { path, query }) => {
    if (!found) throw new ApiError('filing_not_found', `No filing ${path.accession_number} is in the filings this service has indexed.`);
    const { sections, ...rest } = found;
    return { ...toFiling(rest, query.view), ...(query.view === 'compact' ? {} : { sections }), ...meta };
  }),
];
