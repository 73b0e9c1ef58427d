// The filing reader (SPEC 8.10): a filing's primary document cleaned for reading, metered in a
// quota window of its own (the `render` class, refused 429 render_rate_limited).
import { z } from 'zod';
import { FilingRenderDocument } from '../operations/generated.ts';
import { operationRoute, viewParam } from '../route.ts';
import { ApiError } from '../../core/errors.ts';
import { renderFormats } from '../../derived/render/index.ts';

const accessionParam = z.string().regex(/^\d{10}-\d{2}-\d{6}$/, 'expected an accession number like 0000320193-24-000123');

const description = [
  'The filing\'s primary document as stored at ingest, cleaned for reading. `format=html` (the default) is sanitized markup safe to show inside a page: no `script`, `style`, frame, object, form, event-handler attribute or URL of any kind (a link to another document becomes plain text, an image a text placeholder; a link within the document keeps working), so showing it loads nothing; inline styles become the classes `fr-b` (bold), `fr-i`, `fr-u`, `fr-c` (centered), `fr-r` (right-aligned), `fr-bt`/`fr-bb` (ruled cell); inline XBRL tags are removed and their facts kept as `<mark class="fr-fact" data-concept="us-gaap:…" data-context="…">` highlights, the hidden XBRL header dropped. Each section\'s heading is an `<h2 id="{key}">` with the section keys of `/v1/filings/{accession_number}/sections/{section_key}`; `sections` lists them with their `anchor` (null when the heading could not be found in the markup).',
  '`format=markdown` gives section headings (`##`), tables as pipe tables and paragraphs; `format=text` plain text with underlined section headings and aligned table columns.',
  'Rendered once per document, format and renderer version, then kept: `cached` says whether this answer was. The agent view cuts `content` at 20,000 characters unless `max_chars` says otherwise (`truncated` says when it did).',
  'A document ingested before documents were stored, or never ingested (a filing known only from the index), is 404 `document_not_found` with `details.reason` (`not_stored`: ingest the filing\'s document again; `not_ingested`); so is a filing of another form than 10-K, 10-Q, 8-K, N-CSR or N-CSRS (`form_not_rendered`), whose documents are not kept. Renders have a quota window of their own, the `render` meter class (see GET /v1/limits): past it, 429 `render_rate_limited` with `Retry-After`, at every door.',
].join('\n\n');

export const renderRoutes = [
  operationRoute({
    name: 'filings_render',
    method: 'GET',
    path: '/v1/filings/{accession_number}/render',
    summary: 'A filing\'s primary document rendered for reading: sanitized HTML, Markdown or text, with its sections',
    description,
    tag: 'Filings',
    access: 'org',
    meter: 'render',
    mcp: true,
    params: {
      path: z.strictObject({ accession_number: accessionParam }),
      query: z.strictObject({
        format: z.enum(renderFormats).default('html').describe('html (sanitized), markdown or text'),
        max_chars: z.coerce.number().int().min(100).max(20_000_000).optional().describe('Cut the content to this many characters (the answer says when it did); the agent view cuts at 20,000 unless told'),
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('filing_render'),
      accessionNumber: z.string(),
      cik: z.string(),
      form: z.string(),
      fileName: z.string().describe('The document\'s file name in the filing'),
      format: z.enum(renderFormats),
      contentType: z.string().describe('What the stored document is: text/html or text/plain'),
      sections: z.array(z.object({ key: z.string(), title: z.string(), anchor: z.string().nullable() })),
      content: z.string(),
      truncated: z.boolean(),
      sourceUrl: z.string().describe('The document in the SEC archive'),
      sha256: z.string().describe('sha256 of the stored (uncompressed) document, hex'),
      size: z.number().int().describe('Bytes of the stored document'),
      cached: z.boolean(),
      requestId: z.string(),
    }),
    errors: ['filing_not_found', 'document_not_found'],
    operation: FilingRenderDocument,
    variables: ({ path, query }) => ({ accessionNumber: path.accession_number, format: query.format }),
  }).reshape(({ filing }, meta, { path, query }) => {
    if (!filing) throw new ApiError('filing_not_found', `No filing ${path.accession_number} is in the filings this service has indexed.`);
    const { render } = filing;
    if (!render) {
      // documents are kept for the periodic reports (10-K, 10-Q) and fund reports (N-CSR, N-CSRS), whose sections the reader
      // navigates, and for current reports (8-K), whose events cite their sentences
      if (!/^(10-[KQ]|8-K|N-CSR)/i.test(filing.form)) throw new ApiError('document_not_found', `Documents of form ${filing.form} are not kept for the reader; only 10-K, 10-Q, 8-K, N-CSR and N-CSRS documents are.`, { details: { reason: 'form_not_rendered' } });
      throw filing.documentIngested
        ? new ApiError('document_not_found', `The document of filing ${filing.accessionNumber} was ingested before documents were stored; ingest it again to read it here.`, { details: { reason: 'not_stored' }, hint: 'Run the ingest of its source again (npm run ids -- ingest --source …): documents missing from the store are loaded even when unchanged.' })
        : new ApiError('document_not_found', `The document of filing ${filing.accessionNumber} has not been ingested, so it cannot be rendered.`, { details: { reason: 'not_ingested' } });
    }
    const limit = query.max_chars ?? (query.view === 'agent' ? 20_000 : undefined);
    const truncated = limit !== undefined && render.content.length > limit;
    return {
      object: 'filing_render',
      accessionNumber: filing.accessionNumber,
      cik: filing.cik,
      form: filing.form,
      fileName: render.fileName,
      format: render.format,
      contentType: render.contentType,
      sections: render.sections,
      content: truncated ? render.content.slice(0, limit) : render.content,
      truncated,
      sourceUrl: render.sourceUrl,
      sha256: render.sha256,
      size: render.size,
      cached: render.cached,
      ...meta,
    };
  }),
];
