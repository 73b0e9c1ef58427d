// A stored filing document rendered for reading (html, markdown or text), computed once per
// document, format and renderer version: the key names the document by its sha256, so an entry
// never goes stale, and the LRU only bounds memory. Rendering a 10-K takes a few hundred
// milliseconds; a cached one is a lookup.
import { LRUCache } from 'lru-cache';
import { documentBlocks } from './blocks.ts';
import { parseDocument, sectionHeadings } from './dom.ts';
import { renderHtml } from './html.ts';
import { toMarkdown, toText } from './markdown.ts';

export const renderFormats = ['html', 'markdown', 'text'] as const;
export type RenderFormat = (typeof renderFormats)[number];

/** Raised when a change to the renderers changes their output: older cached renderings are not served. */
export const rendererVersion = 'render/1';

export interface RenderedDocument {
  content: string;
  /** the sections whose heading was found, by key: its anchor in the html (the key itself) */
  anchored: string[];
}

export interface RenderInput {
  sha256: string;
  form: string;
  /** the stored sections' keys, in document order */
  sectionKeys: string[];
  /** read only when the rendering is not cached */
  document: () => Promise<string>;
}

/** What all cached renderings may weigh together, in characters. */
const maxCachedChars = 96 * 1024 * 1024;
const done = new LRUCache<string, RenderedDocument>({ maxSize: maxCachedChars, sizeCalculation: (r) => Math.max(r.content.length, 1) });
const pending = new Map<string, Promise<RenderedDocument>>();

export function renderDocumentText(text: string, form: string, sectionKeys: string[], format: RenderFormat): RenderedDocument {
  const root = parseDocument(text);
  const headings = sectionHeadings(root, form, sectionKeys);
  const anchored = [...headings.values()];
  if (format === 'html') return { content: renderHtml(root, headings), anchored };
  const blocks = documentBlocks(root, headings);
  return { content: format === 'markdown' ? toMarkdown(blocks) : toText(blocks), anchored };
}

/** The rendering, and whether it was already computed. Concurrent first requests share one rendering. */
export async function renderStoredDocument(input: RenderInput, format: RenderFormat): Promise<RenderedDocument & { cached: boolean }> {
  const key = `${rendererVersion}:${input.sha256}:${format}:${input.sectionKeys.join(',')}`;
  const kept = done.get(key);
  if (kept) return { ...kept, cached: true };
  const running = pending.get(key);
  if (running) return { ...(await running), cached: true };
  const work = input.document().then((text) => renderDocumentText(text, input.form, input.sectionKeys, format));
  pending.set(key, work);
  try {
    const result = await work;
    done.set(key, result);
    return { ...result, cached: false };
  } finally {
    pending.delete(key);
  }
}
