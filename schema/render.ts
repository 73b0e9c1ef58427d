// The filing reader: a filing's primary document rendered for reading (resolvers/filingRender.ts).
import { requireDataAccess } from '../resolvers/access.ts';
import { renderFiling, type FilingRender } from '../resolvers/filingRender.ts';
import { renderFormats } from '../derived/render/index.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';

const RenderFormatRef = builder.enumType('RenderFormat', {
  values: renderFormats,
  description: 'html: sanitized markup (no script, style, frame, event handler or URL; inline XBRL facts as <mark data-concept data-context>); markdown: headings, pipe tables, paragraphs; text: plain text with section headings',
});

const RenderSection = builder.objectRef<FilingRender['sections'][number]>('RenderSection').implement({
  description: 'A section of the rendered document.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The section key, as the sections route names it (item_1a, part1_item2, …)' }),
    title: t.exposeString('title'),
    anchor: t.exposeString('anchor', { nullable: true, description: 'The id of its heading in the html (the key itself); null when the heading was not found in the document' }),
  }),
});

const FilingRenderRef = builder.objectRef<FilingRender>('FilingRender').implement({
  description: 'A filing\'s primary document cleaned for reading. Rendered once per document, format and renderer version, then kept.',
  fields: (t) => ({
    format: t.field({ type: RenderFormatRef, resolve: (r) => r.format }),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType', { description: 'What the stored document is: text/html or text/plain' }),
    sections: t.field({ type: [RenderSection], resolve: (r) => r.sections }),
    content: t.exposeString('content'),
    sourceUrl: t.exposeString('sourceUrl', { description: 'The document in the SEC archive' }),
    sha256: t.exposeString('sha256', { description: 'sha256 of the stored document, hex' }),
    size: t.exposeInt('size', { description: 'Bytes of the stored document' }),
    cached: t.exposeBoolean('cached', { description: 'Whether this rendering had been computed before' }),
  }),
});

builder.prismaObjectField('Filing', 'render', (t) =>
  t.field({
    type: FilingRenderRef,
    nullable: true,
    // counted in the organization's render window at the GraphQL door too (graphql/meters.ts)
    extensions: { ownWindow: 'render' },
    description: 'The primary document rendered for reading; null when the document is not stored (not ingested, or ingested before documents were kept: ingest it again). One filing at a time: not in a list.',
    args: { format: t.arg({ type: RenderFormatRef, defaultValue: 'html', required: true }) },
    select: { accessionNumber: true, cik: true, form: true },
    resolve: (filing, args, ctx, info) => {
      requireDataAccess(ctx);
      // each render is counted once per selection, which a list would multiply
      for (let path: typeof info.path | undefined = info.path; path; path = path.prev) {
        if (typeof path.key === 'number') throw new ApiError('invalid_query_parameter', 'render reads one filing at a time: select it on filing(accessionNumber:), not on a list.', { details: { parameter: 'render' } });
      }
      return renderFiling(ctx, filing, args.format);
    },
  }),
);
