// Special situations tracked over their life from a company's filings: each kind is a set of forms
// (and 8-K items); a company's filings of one kind less than 180 days apart are one situation.
// Its stage is `completed` when a filing marks completion, `in_progress` once a later filing
// moves it on, else `announced`. Nothing is stored: situations are regrouped from Filing rows on
// every read, and a situation's id is a digest of its kind, CIK and first accession number.
import { ApiError } from '../core/errors.ts';
import { z } from 'zod';
import { cursorDay, pageCursor } from '../core/cursor.ts';
import { digest } from '../core/rows.ts';
import { citationUrl, isoDay } from '../derived/citations.ts';
import { itemTitle } from '../ingest/parsers/eightK/sections.ts';
import type { Prisma } from '../prisma/generated/client/client.ts';
import { requireDataAccess } from './access.ts';
import type { Context } from './context.ts';

interface Kind {
  description: string;
  forms: string[];
  /** 8-K items that belong to this kind */
  items: string[];
  /** what marks the situation completed, in words; null when no filing does */
  completion: string | null;
  completes: (form: string, items: string[]) => boolean;
}

export const situationKinds: Record<string, Kind> = {
  merger: {
    description: 'A merger or acquisition: 8-K Items 1.01 (a material definitive agreement, which may also be a financing) and 2.01, merger proxies (DEFM14A, PREM14A, DEFM14C, PREM14C), registrations for a business combination (S-4, F-4 and amendments) and Rule 425 communications',
    forms: ['DEFM14A', 'PREM14A', 'DEFM14C', 'PREM14C', 'S-4', 'S-4/A', 'F-4', 'F-4/A', '425'],
    items: ['1.01', '2.01'],
    completion: 'an 8-K Item 2.01 (completion of acquisition or disposition of assets)',
    completes: (form, items) => form.startsWith('8-K') && items.includes('2.01'),
  },
  tender_offer: {
    description: 'A third-party tender offer: Schedule TO-T and the target\'s Schedule 14D-9, with amendments (issuer tender offers, SC TO-I, are left out: funds file them routinely)',
    forms: ['SC TO-T', 'SC TO-T/A', 'SC 14D9', 'SC 14D9/A'],
    items: [],
    completion: null,
    completes: () => false,
  },
  spin_off: {
    description: 'A spin-off or new listing registered on Form 10 (10-12B and amendments)',
    forms: ['10-12B', '10-12B/A'],
    items: [],
    completion: null,
    completes: () => false,
  },
  going_private: {
    description: 'A going-private transaction (Schedule 13E-3 and amendments)',
    forms: ['SC 13E3', 'SC 13E3/A'],
    items: [],
    completion: null,
    completes: () => false,
  },
  bankruptcy: {
    description: 'A bankruptcy or receivership (8-K Item 1.03)',
    forms: [],
    items: ['1.03'],
    completion: null,
    completes: () => false,
  },
  delisting: {
    description: 'A removal from listing (Form 25 by the issuer, 25-NSE by the exchange, and amendments)',
    forms: ['25', '25/A', '25-NSE', '25-NSE/A'],
    items: [],
    completion: 'a Form 25 or 25-NSE, the notice that removes the listing (effective 10 days after it is filed, Rule 12d2-2(d))',
    completes: (form) => form.startsWith('25'),
  },
  activist_campaign: {
    description: 'An activist campaign: Schedule 13D and its amendments',
    forms: ['SC 13D', 'SC 13D/A'],
    items: [],
    completion: null,
    completes: () => false,
  },
};

export const situationStages = ['announced', 'in_progress', 'completed'] as const;
export type SituationStage = (typeof situationStages)[number];

/** Filings of one kind less than this many days apart belong to the same situation. */
export const situationGapDays = 180;

const eightK = /^8-K(\/A)?$/;

export interface TimelineEntry {
  accessionNumber: string;
  form: string;
  items: string[];
  filedAt: string;
  /** what the filing does for the situation: opens it, moves it on, or completes it */
  role: 'announcement' | 'update' | 'completion';
  what: string;
  citationUrl: string;
}

export interface Situation {
  id: string;
  kind: string;
  stage: SituationStage;
  stageRule: string;
  cik: string;
  companyName: string;
  firstFiledAt: string;
  lastFiledAt: string;
  filingCount: number;
  timeline: TimelineEntry[];
}

const select = { accessionNumber: true, cik: true, form: true, items: true, filedAt: true, orderedAt: true, primaryDocument: true, entity: { select: { name: true } } } satisfies Prisma.FilingSelect;
type Row = Prisma.FilingGetPayload<{ select: typeof select }>;

function kindOf(row: Row): string | null {
  for (const [kind, k] of Object.entries(situationKinds)) {
    if (k.forms.includes(row.form)) return kind;
    if (eightK.test(row.form) && row.items.some((i) => k.items.includes(i))) return kind;
  }
  return null;
}

/** `sit_<cik>_<digest>`: the CIK lets one situation be found without regrouping every company. */
export const situationId = (kind: string, cik: string, firstAccession: string) => `sit_${cik}_${digest('situation', kind, cik, firstAccession)}`;

function whatOf(row: Row, kind: string): string {
  if (!eightK.test(row.form)) return `${row.form} filed`;
  const items = row.items.filter((i) => situationKinds[kind]!.items.includes(i));
  return `${row.form} reports ${items.map((i) => `${itemTitle(i) ?? `Item ${i}`} (${i})`).join('; ')}`;
}

function group(kind: string, rows: Row[]): Situation[] {
  const sorted = [...rows].sort((a, b) => a.orderedAt.getTime() - b.orderedAt.getTime() || a.accessionNumber.localeCompare(b.accessionNumber));
  const k = situationKinds[kind]!;
  const groups: Row[][] = [];
  for (const row of sorted) {
    const current = groups.at(-1);
    const last = current?.at(-1);
    // once completed, a situation takes only further completion filings (an 8-K/A of the 2.01 report)
    const closed = current?.some((f) => k.completes(f.form, f.items)) && !k.completes(row.form, row.items);
    if (last && !closed && (row.orderedAt.getTime() - last.orderedAt.getTime()) / 86_400_000 < situationGapDays) current!.push(row);
    else groups.push([row]);
  }
  return groups.map((filings) => {
    const first = filings[0]!;
    const timeline = filings.map((f, i): TimelineEntry => ({
      accessionNumber: f.accessionNumber,
      form: f.form,
      items: f.items,
      filedAt: isoDay(f.filedAt ?? f.orderedAt)!,
      role: k.completes(f.form, f.items) ? 'completion' : i === 0 ? 'announcement' : 'update',
      what: whatOf(f, kind),
      citationUrl: citationUrl(f.cik, f.accessionNumber, f.primaryDocument),
    }));
    const stage: SituationStage = timeline.some((t) => t.role === 'completion') ? 'completed' : filings.length > 1 ? 'in_progress' : 'announced';
    return {
      id: situationId(kind, first.cik, first.accessionNumber),
      kind,
      stage,
      stageRule: `completed when a filing marks it${k.completion ? ` (${k.completion})` : ' (no filing of this kind does)'}; in_progress once a later filing of the kind follows the first; else announced`,
      cik: first.cik,
      companyName: first.entity.name,
      firstFiledAt: timeline[0]!.filedAt,
      lastFiledAt: timeline.at(-1)!.filedAt,
      filingCount: filings.length,
      timeline,
    };
  });
}

const allForms = Object.values(situationKinds).flatMap((k) => k.forms);
const allItems = Object.values(situationKinds).flatMap((k) => k.items);

/** Every situation of these companies (all held companies when `ciks` is null). */
async function situationsOf(ctx: Context, ciks: string[] | null): Promise<Situation[]> {
  const rows = await ctx.prisma.filing.findMany({
    where: { ...(ciks ? { cik: { in: ciks } } : {}), OR: [{ form: { in: allForms } }, { form: { in: ['8-K', '8-K/A'] }, items: { hasSome: allItems } }] },
    select,
  });
  const byKey = new Map<string, Row[]>();
  for (const row of rows) {
    const kind = kindOf(row);
    // a 25-NSE held under the exchange that filed it (its accession number begins with that CIK) names no issuer here
    if (!kind || (row.form.startsWith('25-NSE') && row.accessionNumber.startsWith(row.cik))) continue;
    const key = `${row.cik}|${kind}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return [...byKey.entries()].flatMap(([key, group_]) => group(key.split('|')[1]!, group_));
}

export interface SituationFilter {
  ciks?: string[] | null;
  kind?: string | null;
  stage?: string | null;
  from?: string | null;
  to?: string | null;
}

/** By the last filing, newest first, then id. */
const situationsCursor = pageCursor('situations', z.tuple([cursorDay, z.string()]));
const placeOf = (s: Situation): [string, string] => [s.lastFiledAt, s.id];

/** Situations passing the filters, by their last filing newest first; dates keep those active in [from, to]. */
export async function listSituations(ctx: Context, filter: SituationFilter, first: number, after: string | null) {
  requireDataAccess(ctx);
  if (filter.kind && !(filter.kind in situationKinds)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`kind\`: ${JSON.stringify(filter.kind)} is not a situation kind.`, { details: { parameter: 'kind', acceptedValues: Object.keys(situationKinds) } });
  }
  if (filter.stage && !(situationStages as readonly string[]).includes(filter.stage)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`stage\`: ${JSON.stringify(filter.stage)} is not a stage.`, { details: { parameter: 'stage', acceptedValues: [...situationStages] } });
  }
  if (filter.from && filter.to && filter.from > filter.to) throw new ApiError('invalid_query_parameter', 'Parameter `filed_from` must not be after `filed_to`.', { details: { parameter: 'filed_from' } });
  const cursor = after ? situationsCursor.decode(after) : null;
  const all = (await situationsOf(ctx, filter.ciks ?? null))
    .filter((s) => (!filter.kind || s.kind === filter.kind) && (!filter.stage || s.stage === filter.stage) && (!filter.from || s.lastFiledAt >= filter.from) && (!filter.to || s.firstFiledAt <= filter.to))
    .sort((a, b) => b.lastFiledAt.localeCompare(a.lastFiledAt) || a.id.localeCompare(b.id));
  const rest = cursor ? all.filter((s) => s.lastFiledAt < cursor[0] || (s.lastFiledAt === cursor[0] && s.id > cursor[1])) : all;
  const shown = rest.slice(0, first);
  return { records: shown.map((s) => ({ record: s, cursor: situationsCursor.encode(placeOf(s)) })), hasMore: rest.length > first, endCursor: shown.length ? situationsCursor.encode(placeOf(shown.at(-1)!)) : null };
}

/** One situation by id, or null. */
export async function situationById(ctx: Context, id: string): Promise<Situation | null> {
  requireDataAccess(ctx);
  const cik = id.match(/^sit_(\d{10})_[0-9a-f]{32}$/)?.[1];
  if (!cik) return null;
  return (await situationsOf(ctx, [cik])).find((s) => s.id === id) ?? null;
}
