// Signals (derived/signals.ts): fixed, documented rules over held filings, each result citing the
// filings it rests on.
import { z } from 'zod';
import { SignalsDocument } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';
import { signalTypes, type SignalEvidence } from '../../derived/signals.ts';

const evidence = z.object({
  accessionNumber: z.string(),
  form: z.string(),
  filedAt: z.string().nullable(),
  item: z.string().nullable().describe('The 8-K item, when the evidence is one'),
  citationUrl: z.string(),
  excerpt: z.string().nullable().describe('The filing\'s own words (the 8-K item\'s text, a 13D\'s Item 4, an offering document\'s sentence), at most 600 characters'),
  excerptNullReason: z.enum(['document_not_held', 'structured_form', 'no_text']).nullable().describe('Why there is no excerpt: only the index knows the filing, the evidence is a structured form (Form 4) or an XBRL fact, or the document gave no text'),
  detail: z.string().describe('What this filing shows, in words'),
});

const signal = z.object({
  object: z.literal('signal'),
  id: z.string().describe('`sig_` + a digest of the type and the evidence\'s accession numbers: the same evidence gives the same id'),
  type: z.enum(Object.keys(signalTypes) as [keyof typeof signalTypes, ...(keyof typeof signalTypes)[]]),
  strength: z.number().min(0).max(1).describe('0 to 1, by the formula `method` states'),
  method: z.string().describe('The rule and its strength formula, in words'),
  asOf: z.string().describe('The filing date of the newest evidence, YYYY-MM-DD'),
  company: z.object({ cik: z.string(), name: z.string().nullable() }),
  evidence: z.array(evidence),
});

const rules = Object.entries(signalTypes).map(([type, rule]) => `\`${type}\`: ${rule}`).join(' ');

export const signalRoutes = [
  operationRoute({
    name: 'signals_list',
    method: 'GET',
    path: '/v1/signals',
    summary: 'Signals computed from held filings, newest evidence first',
    description:
      'Each signal is the result of a fixed rule over filings the service holds, with its type, a strength from 0 to 1 by a stated formula, the rule in words (`method`), `asOf` (the filing date of its newest evidence; a filing known only from its document, which states no filing date, counts at its report date), the company, and the evidence: each filing\'s accession number, citation URL, 8-K item, its own words where held (else `excerptNullReason`) and what it shows. ' +
      `The rules: ${rules} ` +
      'A signal\'s id is a digest of its type and its evidence\'s accession numbers, so it is stable across reads and ingests; new evidence that joins a cluster makes a new signal. An ingest that adds evidence (a filing, form or 8-K item) making a signal not announced before writes a public `signal.added` event in the same transaction (a bulk load of the SEC\'s archives: after the load, for each company it changed). Evidence must carry an accession number to be cited: a document read without one (a bare primary document) makes no signal. ' +
      'Filters: company (`ticker` or `cik`), `type`, and `filed_from`/`filed_to` on `asOf`. Signals are computed from what is held (each company\'s dilution score rises are kept until an ingest rebuilds its dilution records): coverage is the ingest\'s.',
    tag: 'Signals',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    errors: ['entity_not_found', 'invalid_query_parameter'],
    params: {
      query: z.strictObject({
        type: z.string().min(1).max(40).optional().describe(`One of ${Object.keys(signalTypes).join(', ')}`),
        ticker: tickerParam,
        cik: cikParam,
        ...dateFilters,
        ...pageParams,
        view: viewParam,
      }),
    },
    response: listEnvelope(signal).extend({ coverage: coverageSchema }),
    operation: SignalsDocument,
    variables: ({ query }) => ({ ticker: query.ticker ?? null, cik: query.cik ?? null, type: query.type ?? null, from: query.filed_from ?? null, to: query.filed_to ?? null, first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ signals }, meta, { query }) => ({
    object: 'list',
    data: signals.nodes.map(({ cik, companyName, type, evidence, ...s }) => ({
      object: 'signal' as const,
      ...s,
      type: type as keyof typeof signalTypes,
      company: { cik, name: companyName ?? null },
      evidence: evidence.map((e) => ({ ...e, excerptNullReason: e.excerptNullReason as SignalEvidence['excerptNullReason'] })),
    })),
    hasMore: signals.pageInfo.hasNextPage,
    nextCursor: signals.pageInfo.hasNextPage ? signals.pageInfo.endCursor : null,
    coverage: coverage(['signals from held filings', query.type && `of type ${query.type}`, query.ticker && `of ${query.ticker}`, query.cik && `of CIK ${query.cik}`].filter(Boolean).join(' ')),
    ...meta,
  })),
];
