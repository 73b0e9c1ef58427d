// A filing's stored primary document, rendered for reading (derived/render/): the reader's read.
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { citationUrl } from '../derived/citations.ts';
import { renderStoredDocument, type RenderFormat } from '../derived/render/index.ts';
import type { Context } from './context.ts';

const gunzipAsync = promisify(gunzip);

export interface FilingRender {
  format: RenderFormat;
  fileName: string;
  contentType: string;
  sections: { key: string; title: string; anchor: string | null }[];
  content: string;
  sourceUrl: string;
  sha256: string;
  size: number;
  cached: boolean;
}

/** Null when the filing's document is not stored (not ingested, or ingested before documents were kept). */
export async function renderFiling(ctx: Context, filing: { accessionNumber: string; cik: string; form: string }, format: RenderFormat): Promise<FilingRender | null> {
  const [stored, sections] = await Promise.all([
    ctx.prisma.filingDocument.findUnique({ where: { accessionNumber: filing.accessionNumber }, select: { fileName: true, contentType: true, sha256: true, size: true } }),
    ctx.prisma.section.findMany({ where: { accessionNumber: filing.accessionNumber }, select: { key: true, title: true }, orderBy: { ordinal: 'asc' } }),
  ]);
  if (!stored) return null;
  const rendering = await renderStoredDocument(
    {
      sha256: stored.sha256,
      form: filing.form,
      sectionKeys: sections.map((s) => s.key),
      document: async () => {
        const { content } = await ctx.prisma.filingDocument.findUniqueOrThrow({ where: { accessionNumber: filing.accessionNumber }, select: { content: true } });
        return (await gunzipAsync(content)).toString('utf8');
      },
    },
    format,
  );
  const anchored = new Set(rendering.anchored);
  return {
    format,
    fileName: stored.fileName,
    contentType: stored.contentType,
    sections: sections.map((s) => ({ key: s.key, title: s.title, anchor: anchored.has(s.key) ? s.key : null })),
    content: rendering.content,
    sourceUrl: citationUrl(filing.cik, filing.accessionNumber, stored.fileName),
    sha256: stored.sha256,
    size: stored.size,
    cached: rendering.cached,
  };
}
