// Fund letters: the shareholder letter of the N-CSR (annual) and N-CSRS (semi-annual) reports of
// registered funds, as sections of the filing, full-text searchable, each citing its filing. The
// reports are fetched from the SEC (the corpus holds none): a list of what is not held says
// not_covered, with the reason and how an operator fetches them.
import { z } from 'zod';
import { FundLetterDocument, FundLettersDocument, type FundLetterQuery, type FundLettersQuery } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, inView, tickerParam } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { accessionParam } from './edgar.ts';
import { provenance } from './ownership.ts';

const common = { tag: 'Fund letters', access: 'org' as const, meter: 'data_read', mcp: true };

const section = z.object({
  key: z.string().describe('`letter` for the first part, then `letter_1`, `letter_2`… in document order; also readable at GET /v1/filings/{accession_number}/sections/{section_key}'),
  kind: z.enum(['letter', 'performance_discussion']).describe('`letter`: a letter to shareholders ("Letter to Shareholders", "Message from the President", "Dear Shareholder,"); `performance_discussion`: management\'s discussion of fund performance (in a tailored report, "How did the Fund perform…?")'),
  title: z.string().describe('The heading as the report states it'),
  ordinal: z.number().int(),
  charCount: z.number().int(),
  text: z.string().optional().describe('The section\'s text (the single letter\'s read)'),
});

const letterFields = {
  object: z.literal('fund_letter'),
  id: z.string().describe('The report\'s accession number'),
  ...provenance,
  form: z.string().describe('N-CSR (annual), N-CSRS (semi-annual), or an amendment of either'),
  filedAt: z.string().nullable(),
  reportKind: z.enum(['annual', 'semi_annual']),
  periodEnd: z.string().nullable().describe('The last day of the period the report covers (the cover\'s "Date of reporting period")'),
  periodEndNullReason: z.string().nullable(),
  registrantCik: z.string(),
  registrantName: z.string().nullable(),
  fundNames: z.array(z.string()).describe('The funds (series) the report names, where it names them: a tailored report names each fund it covers'),
  shape: z.enum(['full_report', 'tailored_shareholder_report']).describe('`full_report`: the report as funds sent it before the SEC\'s tailored shareholder report rule (a letter, a discussion of performance, the financial statements); `tailored_shareholder_report`: the shape required from July 2024, which has no letter'),
  letterNullReason: z.string().nullable().describe('Why no section is a letter, when none is (`not_reported: …`): a tailored report carries none'),
  signers: z.array(z.object({ name: z.string(), title: z.string().nullable() })).describe('Who signed the letter, from its closing ("Sincerely," and the names and titles after it)'),
  signersNullReason: z.string().nullable(),
  sections: z.array(section),
};

const match = z
  .object({
    sectionKey: z.string(),
    sectionTitle: z.string(),
    snippet: z.string().describe('The best matching passage, the query\'s words wrapped in <mark>…</mark>'),
    rank: z.number(),
    phraseMatch: z.boolean().describe('The section holds the query as a phrase'),
  })
  .nullable()
  .describe('With `q`: the letter\'s section that matches best; null without `q`');

const listedLetter = z.object({ ...letterFields, match }).partial().required({ object: true, id: true, accessionNumber: true, citationUrl: true, citationNullReason: true });
const fullLetter = z.object(letterFields);

type Listed = FundLettersQuery['fundLetters']['nodes'][number];
type Full = FundLetterQuery['fundLetter'];

const typed = <T extends Listed | Full>(l: T) => ({
  object: 'fund_letter' as const,
  ...l,
  reportKind: l.reportKind as 'annual' | 'semi_annual',
  shape: l.shape as 'full_report' | 'tailored_shareholder_report',
  sections: l.sections.map((s) => ({
    key: s.key,
    kind: s.kind as 'letter' | 'performance_discussion',
    title: s.title,
    ordinal: s.ordinal,
    charCount: s.charCount,
    ...('text' in s ? { text: (s.text as string | null) ?? '' } : {}),
  })),
});

const listRoute = operationRoute({
  name: 'fund_letters_list',
  method: 'GET',
  path: '/v1/funds/letters',
  summary: 'Shareholder letters of fund reports (N-CSR, N-CSRS), searchable',
  description:
    'The letter of each fund shareholder report held (Item 1, "Reports to Stockholders", of Form N-CSR or N-CSRS): its sections (a letter to shareholders, management\'s discussion of fund performance), the fund, the period, who signed it, citing the filing. Newest first; with `q`, full text over the letters\' sections (websearch syntax: quotes for phrases, `or`, `-` to exclude), best match first, each letter once with its best section\'s highlighted snippet. Filters: the registrant (`cik`, or the `ticker` of a fund share class its N-CEN lists), `form`, filing dates. ' +
    'Reports since July 2024 follow the SEC\'s tailored shareholder report rule, which leaves the letter out: their sections are each fund\'s discussion of performance (`shape`, `letterNullReason`). ' +
    'The EDGAR corpus holds no fund report: they are fetched from the SEC (an operator runs `npm run ids -- fund-letters:fetch`; the sync keeps the registrants held current). When none of what was asked is held, the answer is `resolution: "not_covered"` with `notCoveredReason` saying so and how to fetch them, never an empty list presented as complete. An unknown CIK or ticker is 404 `entity_not_found`.',
  ...common,
  errors: ['entity_not_found', 'invalid_query_parameter'],
  params: {
    query: z.strictObject({
      cik: cikParam.describe('The fund registrant\'s Central Index Key'),
      ticker: tickerParam.describe('A fund share class ticker (from the registrant\'s N-CEN), or the registrant\'s own'),
      form: z.enum(['N-CSR', 'N-CSRS', 'N-CSR/A', 'N-CSRS/A']).optional().describe('Only annual (N-CSR) or semi-annual (N-CSRS) reports, or their amendments'),
      ...dateFilters,
      q: z.string().min(1).max(200).optional().describe('Full text over the letters\' sections'),
      ...pageParams,
      view: viewParam,
    }),
  },
  response: listEnvelope(listedLetter).extend({
    resolution: z.enum(['covered', 'not_covered']).describe('`not_covered` when no fund report of what was asked is held (the list is then empty because nothing was fetched, not because nothing was written)'),
    notCoveredReason: z.string().nullable(),
    coverage: coverageSchema,
  }),
  operation: FundLettersDocument,
  variables: ({ query }) => ({ cik: query.cik ?? null, ticker: query.ticker ?? null, form: query.form ?? null, filedFrom: query.filed_from ?? null, filedTo: query.filed_to ?? null, q: query.q ?? null, first: query.limit, after: query.cursor ?? null }),
}).reshape(({ fundLetters: page }, meta, { query }) => ({
  object: 'list',
  data: page.nodes.map((l) =>
    inView(query.view, typed(l), {
      always: ['object', 'id', 'accessionNumber', 'citationUrl', 'citationNullReason', 'form', 'filedAt', 'registrantCik'],
      compact: ['registrantName', 'periodEnd', 'shape', 'match'],
      agent: ['registrantName', 'fundNames', 'periodEnd', 'reportKind', 'shape', 'letterNullReason', 'signers', 'sections', 'match'],
    }),
  ),
  hasMore: page.hasMore,
  nextCursor: page.nextCursor,
  resolution: page.resolution as 'covered' | 'not_covered',
  notCoveredReason: page.notCoveredReason,
  coverage: coverage(['Letters of the N-CSR and N-CSRS reports fetched from the SEC', query.cik && `of CIK ${query.cik}`, query.ticker && `of ticker ${query.ticker}`, query.form && `of form ${query.form}`, query.q && `matching "${query.q}"`].filter(Boolean).join(' ')),
  ...meta,
}));

const readRoute = operationRoute({
  name: 'fund_letters_get',
  method: 'GET',
  path: '/v1/funds/letters/{accession_number}',
  summary: 'One fund report\'s shareholder letter, with its text',
  description:
    'The letter of one N-CSR or N-CSRS report: its sections with their text (`letter`, `letter_1`…), the registrant and the funds it names, the period, the signers, and the filing it cites (its document is also rendered by GET /v1/filings/{accession_number}/render). ' +
    'A report not held is 404 `filing_not_found`, saying whether the filing index lists it (`details.coverage: "not_covered"`: fetched from the SEC, not yet fetched; the hint names the operator command) or it is not a fund report.',
  ...common,
  errors: ['filing_not_found'],
  params: { path: z.strictObject({ accession_number: accessionParam }), query: z.strictObject({ view: viewParam }) },
  response: fullLetter.extend({ requestId: z.string() }),
  operation: FundLetterDocument,
  variables: ({ path }) => ({ accessionNumber: path.accession_number }),
}).reshape(({ fundLetter: l }, meta) => ({ ...typed(l), ...meta }));

export const fundLetterRoutes: Route[] = [listRoute, readRoute];
