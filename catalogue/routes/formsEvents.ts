// Structured forms and filing-derived events (SPEC 4.5): one route definition per family,
// all with cursor pagination and date filters.
import { z } from 'zod';
import { EventsDocument, FormDocument, FormsDocument, type FormFieldsFragment } from '../operations/generated.ts';
import { cikParam, coverage, coverageSchema, dateFilters, inView, tickerParam, type View } from '../dataParams.ts';
import { listEnvelope, operationRoute, pageParams, type Route, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';

const formFamilies: { slug: string; family: string; object: string; title: string; note?: string }[] = [
  { slug: '1-a', family: '1-A', object: 'form_1a', title: 'Regulation A offering statements (Form 1-A)', note: 'Form 1-A documents are not in the ingested corpus yet; the list says what it searched.' },
  { slug: '144', family: '144', object: 'form_144', title: 'Notices of proposed sale of securities (Form 144)' },
  { slug: 'c', family: 'C', object: 'form_c', title: 'Regulation Crowdfunding offerings and reports (Form C, C-U, C-AR, C-TR)' },
  { slug: 'd', family: 'D', object: 'form_d', title: 'Exempt offerings (Form D)' },
  { slug: 'ncen', family: 'NCEN', object: 'form_ncen', title: 'Annual reports of registered funds (N-CEN)' },
  { slug: 'npx', family: 'NPX', object: 'form_npx', title: 'Annual reports of proxy votes (N-PX)' },
];

const formItem = z
  .object({
    object: z.string(),
    id: z.string().describe('Accession number, or `doc_…` for a document that does not carry one'),
    accessionNumber: z.string().nullable(),
    formType: z.string(),
    cik: z.string().nullable(),
    companyName: z.string().nullable(),
    filedAt: z.string().nullable(),
    periodOfReport: z.string().nullable(),
    isSample: z.boolean(),
    citationUrl: z.string().nullable(),
    citationNullReason: z.string().nullable().describe('Why `citationUrl` is null (a document ingested without its accession number, or an SEC specification sample); null when there is a citation'),
    parties: z.unknown(),
    data: z.unknown().describe('The form as filed (fields per family)'),
  })
  .partial()
  .required({ object: true, id: true, formType: true });

function toForm(object: string, f: FormFieldsFragment, view: View) {
  const { entity, family: _family, ...rest } = f;
  return inView(view, { object, ...rest, companyName: entity?.name ?? null }, { always: ['object', 'id', 'formType', 'accessionNumber', 'filedAt', 'citationUrl', 'citationNullReason'], compact: ['companyName', 'cik'], agent: ['companyName', 'data'] });
}

const formListRoutes: Route[] = formFamilies.map(({ slug, family, object, title, note }) =>
  operationRoute({
    name: `forms_${slug.replace('-', '')}_list`,
    method: 'GET',
    path: `/v1/forms/${slug}`,
    summary: `Recent ${title}`,
    description: `Newest filed first; cursor pagination and filing-date filters.${note ? ` ${note}` : ''} The SEC's specification samples (fictitious data) are left out unless include_samples=true.`,
    tag: 'Forms',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: z.strictObject({
        ticker: tickerParam,
        cik: cikParam,
        form_type: z.string().min(1).max(20).optional().describe('Form type as filed, e.g. D/A'),
        include_samples: z.enum(['true', 'false']).default('false').describe('Include the SEC\'s specification samples'),
        ...dateFilters,
        ...pageParams,
        view: viewParam,
      }),
    },
    response: listEnvelope(formItem).extend({ coverage: coverageSchema }),
    operation: FormsDocument,
    watch: { records: 'form', scope: family, restrict: 'only' },
    variables: ({ query }) => ({
      family,
      formType: query.form_type ?? null,
      cik: query.cik ?? null,
      ticker: query.ticker ?? null,
      filedFrom: query.filed_from ?? null,
      filedTo: query.filed_to ?? null,
      includeSamples: query.include_samples === 'true',
      first: query.limit,
      after: query.cursor ?? null,
    }),
  }).reshape(({ forms }, meta, { query }) => ({
    object: 'list',
    data: forms.nodes.map((f) => toForm(object, f, query.view)),
    hasMore: forms.pageInfo.hasNextPage,
    nextCursor: forms.pageInfo.hasNextPage ? forms.pageInfo.endCursor : null,
    coverage: coverage(`${title} ingested${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}${query.filed_from ? ` from ${query.filed_from}` : ''}${query.filed_to ? ` to ${query.filed_to}` : ''}`),
    ...meta,
  })),
);

const formDById = operationRoute({
  name: 'forms_d_get',
  method: 'GET',
  path: '/v1/forms/d/{accessionNumber}',
  summary: 'Structured offering data of one Form D',
  description: 'The path takes the accession number (0001234567-24-000001), or the `doc_…` id a list gave for a Form D document that does not carry one.',
  tag: 'Forms',
  access: 'org',
  meter: 'data_read',
  mcp: true,
  params: { path: z.strictObject({ accessionNumber: z.string().regex(/^(\d{10}-\d{2}-\d{6}|doc_[0-9a-f]{32})$/, 'expected an accession number like 0001234567-24-000001') }), query: z.strictObject({ view: viewParam }) },
  response: formItem.extend({ requestId: z.string() }),
  errors: ['form_not_found'],
  operation: FormDocument,
  variables: ({ path }) => ({ id: path.accessionNumber, family: 'D' }),
}).reshape(({ form }, meta, { path, query }) => {
  if (!form) throw new ApiError('form_not_found', `No Form D ${path.accessionNumber} is in the forms this service has ingested.`);
  return { ...toForm('form_d', form, query.view), ...meta };
});

const eventFamilies: { slug: string; type: string; object: string; title: string; note?: string }[] = [
  { slug: 'auditor-changes', type: 'auditor_change', object: 'auditor_change', title: '8-K Item 4.01 changes in the registrant\'s certifying accountant' },
  { slug: 'restatements', type: 'restatement', object: 'restatement', title: '8-K Item 4.02 non-reliance on previously issued financial statements, with affected periods' },
  { slug: 'officer-changes', type: 'officer_change', object: 'officer_change', title: '8-K Item 5.02 departures and appointments of directors and officers' },
  { slug: 'voting-results', type: 'voting_results', object: 'voting_results', title: '8-K Item 5.07 shareholder vote results, per proposal' },
  { slug: 'ipo', type: 'offering', object: 'offering_candidate', title: 'Filing-derived IPO and offering candidates (S-1, F-1, 424B prospectuses)' },
  { slug: 'ma', type: 'ma_signal', object: 'ma_signal', title: 'Filing-derived merger and acquisition signals (8-K Items 1.01/2.01, S-4, merger proxies, tender offers)' },
  { slug: 'enforcement', type: 'enforcement', object: 'enforcement_action', title: 'SEC enforcement releases, proceedings and accounting actions', note: 'Enforcement releases are not among the sources this service ingests yet; the list is empty and says so.' },
];

const eventItem = z
  .object({
    object: z.string(),
    accessionNumber: z.string().nullable(),
    cik: z.string().nullable(),
    companyName: z.string().nullable(),
    form: z.string().nullable(),
    item: z.string().nullable(),
    eventDate: z.string().nullable(),
    filedAt: z.string().nullable(),
    fromIndexOnly: z.boolean().describe('True when only EDGAR\'s index tells of the event: its document was not ingested, so there is no content'),
    confidence: z.string().nullable(),
    citationUrl: z.string().nullable(),
    citationNullReason: z.string().nullable().describe('Why `citationUrl` is null (a document ingested without its accession number, or an SEC specification sample); null when there is a citation'),
    sourceSpan: z
      .string()
      .nullable()
      .describe(
        'The sentence of the filing\'s document the event was read from, as the document states it (spaces collapsed): the officer change\'s announcement, the meeting of a vote, the non-reliance statement, the sentence naming the audit firm. GET /v1/filings/{accession_number}/render shows the document it is in (the dashboard\'s reader marks it). Null with `sourceSpanNullReason` when no sentence states it',
      ),
    sourceSpanNullReason: z.string().nullable().describe('Why `sourceSpan` is null (an item of tables or lists only, an event known from EDGAR\'s index only, a document ingested before events kept their sentence); null when there is one'),
    documentHeld: z.boolean().describe('Whether the service stores the filing\'s document, so that GET /v1/filings/{accession_number}/render shows it'),
    data: z.unknown().describe('The event as read. voting_results: meetingDate, meetingType, parsingConfidence and `proposals`, each with number, description, proposalType, nominee (director elections), for, against, withheld, abstain, brokerNonVotes, frequency (say-on-frequency), outcome, and its own `sourceSpan` (the sentence stating its result, else its first) or `sourceSpanNullReason`. officer_change: changes {person, position, change, effectiveDate}. restatement: affectedPeriods, periodEnds. auditor_change: formerAuditor, newAuditor, change. Every 8-K event: item, excerpt (the item\'s text, at most 1,500 characters)'),
  })
  .partial()
  .required({ object: true });

const eventRoutes: Route[] = eventFamilies.map(({ slug, type, object, title, note }) =>
  operationRoute({
    name: `events_${slug.replace(/-/g, '_')}_list`,
    method: 'GET',
    path: `/v1/events/${slug}`,
    summary: title,
    description: `Newest filed first; cursor pagination and filing-date filters.${note ? ` ${note}` : ''}`,
    tag: 'Events',
    access: 'org',
    meter: 'data_read',
    mcp: true,
    params: {
      query: z.strictObject({
        ticker: tickerParam,
        cik: cikParam,
        ...(type === 'voting_results' ? { meeting_type: z.enum(['annual', 'special']).optional().describe('Annual or special meeting') } : {}),
        ...dateFilters,
        ...pageParams,
        view: viewParam,
      }),
    },
    response: listEnvelope(eventItem).extend({ coverage: coverageSchema }),
    operation: EventsDocument,
    watch: { records: 'filing_event', scope: type, restrict: 'only' },
    variables: ({ query }) => ({
      type,
      cik: query.cik ?? null,
      ticker: query.ticker ?? null,
      filedFrom: query.filed_from ?? null,
      filedTo: query.filed_to ?? null,
      meetingType: (query as { meeting_type?: string }).meeting_type ?? null,
      first: query.limit,
      after: query.cursor ?? null,
    }),
  }).reshape(({ events }, meta, { query }) => ({
    object: 'list',
    data: events.nodes.map((e) => {
      const { entity, filing, type: _type, ...rest } = e;
      return inView(
        query.view,
        { object, ...rest, companyName: entity?.name ?? null, form: filing?.form ?? null },
        { always: ['object', 'accessionNumber', 'filedAt', 'citationUrl', 'citationNullReason', 'sourceSpan', 'sourceSpanNullReason'], compact: ['companyName', 'item', 'eventDate', 'fromIndexOnly'], agent: ['companyName', 'item', 'eventDate', 'fromIndexOnly', 'confidence', 'documentHeld', 'data'] },
      );
    }),
    hasMore: events.pageInfo.hasNextPage,
    nextCursor: events.pageInfo.hasNextPage ? events.pageInfo.endCursor : null,
    coverage: coverage(`${title}${query.ticker ? ` for ${query.ticker}` : ''}${query.cik ? ` for CIK ${query.cik}` : ''}`, note ? { unavailable: true } : {}),
    ...meta,
  })),
);

export const formAndEventRoutes: Route[] = [...formListRoutes, formDById, ...eventRoutes];
