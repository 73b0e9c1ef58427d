// News made from filings, never written: each 8-K (and 6-K and the other forms that announce
// something material) held becomes a dated story. The headline is what the 8-K items (a 6-K: its
// form) say happened and, where the filing's EX-99 press release was read, that release's title; the lead is the
// filing's own words (the excerpt of its first reported item, when its document was read); the
// story cites the filing and its press release. Nothing is stored: a story is a view of a Filing
// row and its events.
import { ApiError } from '../core/errors.ts';
import { citationUrl } from '../derived/citations.ts';
import type { PressRelease } from '../ingest/parsers/eightK/exhibits.ts';
import { itemTitle } from '../ingest/parsers/eightK/sections.ts';
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { Context } from './context.ts';

/** The forms that make a story, and what each says happened. */
export const newsForms: Record<string, string> = {
  '8-K': 'reports',
  '8-K/A': 'amends a report of',
  '6-K': 'reports (foreign private issuer)',
  '6-K/A': 'amends a report (foreign private issuer)',
  'SC 13D': 'is the subject of an activist stake (Schedule 13D)',
  'SC 13D/A': 'is the subject of an amended activist stake (Schedule 13D/A)',
  'SC TO-T': 'is the subject of a third-party tender offer (Schedule TO-T)',
  'SC 14D9': 'responds to a tender offer (Schedule 14D-9)',
  'SC 13E3': 'files a going-private transaction statement (Schedule 13E-3)',
  DEFM14A: 'files a definitive merger proxy (DEFM14A)',
  'S-4': 'registers securities for a business combination (S-4)',
  '425': 'communicates about a business combination (Rule 425)',
  '25-NSE': 'is being removed from listing (Form 25)',
  '25': 'files to withdraw a listing (Form 25)',
  '15-12B': 'files to terminate registration (Form 15)',
  'NT 10-K': 'says its annual report will be late (NT 10-K)',
  'NT 10-Q': 'says its quarterly report will be late (NT 10-Q)',
  '10-12B': 'registers securities for a spin-off or listing (Form 10)',
};

const story = {
  accessionNumber: true,
  form: true,
  items: true,
  acceptedAt: true,
  orderedAt: true,
  filedAt: true,
  cik: true,
  primaryDocument: true,
  documentSourceKey: true,
  entity: { select: { name: true, tickers: true, listings: { select: { ticker: true } } } },
  events: { select: { item: true, data: true }, orderBy: { item: 'asc' } },
} satisfies Prisma.FilingSelect;

export type StoryRow = Prisma.FilingGetPayload<{ select: typeof story }>;
export const storySelect = story;

/** A press release the story cites: the exhibit, where the SEC serves it, and its title. */
export interface StoryExhibit {
  type: string;
  sequence: number | null;
  fileName: string | null;
  description: string | null;
  title: string | null;
  citationUrl: string | null;
}

export interface Exhibit {
  exhibit: StoryExhibit | null;
  /** why the story cites no titled press release */
  nullReason: 'document_not_held' | 'exhibits_not_read' | 'no_press_release' | 'untitled' | null;
}

const exhibits = new WeakMap<object, Exhibit>();

/**
 * The filing's first EX-99 press release, from the events its document gave (each carries the
 * submission's press releases; a primary document read alone carries none, so they are not known).
 */
export function exhibitOf(row: Pick<StoryRow, 'cik' | 'accessionNumber' | 'documentSourceKey' | 'events'>): Exhibit {
  let found = exhibits.get(row);
  if (found) return found;
  const held = row.events.map((e) => (e.data as { pressReleases?: unknown }).pressReleases).find((p) => Array.isArray(p)) as PressRelease[] | undefined;
  const first = held?.[0];
  found =
    row.documentSourceKey === null ? { exhibit: null, nullReason: 'document_not_held' }
    : !held ? { exhibit: null, nullReason: 'exhibits_not_read' }
    : !first ? { exhibit: null, nullReason: 'no_press_release' }
    : { exhibit: { ...first, citationUrl: first.fileName ? citationUrl(row.cik, row.accessionNumber, first.fileName) : null }, nullReason: first.title ? null : 'untitled' };
  exhibits.set(row, found);
  return found;
}

/** The company's tickers: those its submissions name and those the SEC's ticker maps list. */
export const tickersOf = (row: { entity: { tickers: string[]; listings: { ticker: string }[] } }): string[] => [...new Set([...row.entity.tickers, ...row.entity.listings.map((l) => l.ticker)])].sort();

/** A 6-K's document title (its description, where that names the document), from the event its document gave. */
const documentTitleOf = (row: Pick<StoryRow, 'events'>): string | null =>
  row.events.map((e) => (e.data as { title?: unknown }).title).find((t): t is string => typeof t === 'string' && !!t.trim()) ?? null;

/**
 * With a titled press release: "Item 2.02 Results of Operations and Financial Condition: ABVC BioPharma
 * Announces 2024 Financial Results". Without: "Apple Inc. reports Results of Operations and Financial
 * Condition (8-K 2.02)".
 */
export function headlineOf(row: Pick<StoryRow, 'form' | 'items' | 'cik' | 'accessionNumber' | 'documentSourceKey' | 'events'> & { entity: { name: string } }): string {
  const verb = newsForms[row.form] ?? `files a ${row.form}`;
  // a 6-K has no items: what it reports is its press release, else its document, by title
  if (row.form.startsWith('6-K')) {
    const title = exhibitOf(row).exhibit?.title ?? documentTitleOf(row);
    return title ? `${row.form}: ${title}` : `${row.entity.name} ${verb}`;
  }
  if (!row.form.startsWith('8-K')) return `${row.entity.name} ${verb}`;
  // 9.01 (financial statements and exhibits) comes with most reports: it is news only alone
  const reported = row.items.filter((item) => item !== '9.01' || row.items.length === 1);
  const title = exhibitOf(row).exhibit?.title;
  if (title) {
    const items = reported.map((item) => `${item} ${itemTitle(item) ?? ''}`.trim()).join('; ');
    return reported.length ? `Item${reported.length > 1 ? 's' : ''} ${items}: ${title}` : `${row.form}: ${title}`;
  }
  if (!reported.length) return `${row.entity.name} files a current report (${row.form})`;
  const titles = reported.map((item) => itemTitle(item) ?? `Item ${item}`);
  return `${row.entity.name} ${verb} ${titles.join('; ')} (${row.form} ${reported.join(', ')})`;
}

export interface Lead {
  text: string | null;
  item: string | null;
  /** why there is no lead */
  nullReason: 'document_not_held' | 'no_item_text' | null;
}

const leads = new WeakMap<object, Lead>();

/** The story's lead, worked out once per row however many of its fields a query selects. */
export function leadOf(row: Pick<StoryRow, 'documentSourceKey' | 'events'>): Lead {
  let lead = leads.get(row);
  if (!lead) leads.set(row, (lead = firstParagraph(row)));
  return lead;
}

/**
 * The filing's own words: the first sentence-bearing paragraph of its first reported item's excerpt
 * (a 6-K's: its first EX-99 exhibit's text, else its document's past the cover), at most 600 characters.
 */
function firstParagraph(row: Pick<StoryRow, 'documentSourceKey' | 'events'>): Lead {
  if (row.documentSourceKey === null) return { text: null, item: null, nullReason: 'document_not_held' };
  for (const event of row.events) {
    const excerpt = (event.data as { excerpt?: unknown }).excerpt;
    if (typeof excerpt !== 'string' || !excerpt.trim()) continue;
    // a sentence, not the item's own heading ("Adoption of the 2027 Variable Compensation Plan")
    const paragraphs = excerpt.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim());
    const paragraph = paragraphs.find((p) => p.length >= 80 && /[.;:]$|\. /.test(p)) ?? paragraphs.find((p) => p.length >= 40) ?? excerpt.replace(/\s+/g, ' ').trim();
    return { text: paragraph.length > 600 ? `${paragraph.slice(0, 597).replace(/\s+\S*$/, '')}…` : paragraph, item: event.item, nullReason: null };
  }
  return { text: null, item: null, nullReason: 'no_item_text' };
}

export interface NewsFilter {
  ciks?: string[] | null;
  form?: string | null;
  item?: string | null;
  from?: string | null;
  to?: string | null;
  q?: string | null;
}

/** The most stories a full-text `q` narrows to before paging. */
const maxMatches = 5000;

/** The Filing rows that are stories passing the filters; `q` is full text over the items' words (websearch syntax). */
export async function newsWhere(ctx: Context, filter: NewsFilter): Promise<Prisma.FilingWhereInput> {
  if (filter.form && !(filter.form in newsForms)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`form\`: ${JSON.stringify(filter.form)} makes no story.`, { details: { parameter: 'form', acceptedValues: Object.keys(newsForms) } });
  }
  if (filter.from && filter.to && filter.from > filter.to) throw new ApiError('invalid_query_parameter', 'Parameter `from` must not be after `to`.', { details: { parameter: 'from' } });
  const where: Prisma.FilingWhereInput = {
    form: filter.form ? filter.form : { in: Object.keys(newsForms) },
    ...(filter.ciks ? { cik: { in: filter.ciks } } : {}),
    ...(filter.item ? { items: { has: filter.item } } : {}),
    ...(filter.from || filter.to ? { filedAt: { ...(filter.from ? { gte: new Date(filter.from) } : {}), ...(filter.to ? { lte: new Date(filter.to) } : {}) } } : {}),
  };
  if (!filter.q) return where;
  const matches = await ctx.prisma.$queryRaw<{ accessionNumber: string }[]>`
    SELECT DISTINCT "accessionNumber" FROM "FilingEvent"
    WHERE "accessionNumber" IS NOT NULL AND "searchVector" @@ websearch_to_tsquery('english', ${filter.q})
    LIMIT ${maxMatches}`;
  return { ...where, accessionNumber: { in: matches.map((m) => m.accessionNumber) } };
}
