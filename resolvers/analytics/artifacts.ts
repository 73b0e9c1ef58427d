// Analytics artifacts (SPEC 4.5): every analytics and intelligence POST result is stored with
// what was asked, the market files it was computed from and a hash of its content, then read back
// by id and exported as JSON or as a Markdown report.
import type { Artifact, Prisma } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
import { newId, sha256Hex } from '../../core/ids.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import { requireOrg } from '../access.ts';
import type { Context } from '../context.ts';

export interface ArtifactSource {
  sourceKey: string;
  kind: string;
  subject: string;
  vintage: string | null;
  firstDate: Date | string | null;
  lastDate: Date | string | null;
}

export interface ArtifactInput {
  /** what made it, e.g. portfolio_analysis, portfolio_risk */
  kind: string;
  /** the POST path that made it */
  route: string;
  /** the request body as the route validated it */
  request: unknown;
  /** the response body, less requestId and the artifact fields */
  result: Record<string, unknown>;
  /** the market files read */
  sources: ArtifactSource[];
  model: string | null;
  window: { from: string; to: string; days: number } | null;
  /** a heading for people: the Markdown export's title */
  title: string;
}

export interface ArtifactManifest {
  inputs: unknown;
  sources: { sourceKey: string; kind: string; subject: string; vintage: string | null; firstDate: string | null; lastDate: string | null }[];
  model: string | null;
  window: { from: string; to: string; days: number } | null;
  contentHash: string;
}

/** An artifact as stored, or as the Artifact query reads it (dates as ISO strings). */
export interface ArtifactRow {
  id: string;
  kind: string;
  route: string;
  title: string;
  requestId: string;
  contentHash: string;
  createdAt: Date | string;
  manifest: unknown;
  result: unknown;
}

/** Fields of a POST's answer that are about this request or the artifact, not its result. */
const notResult = new Set(['requestId', 'artifactId', 'artifact']);

/** The value as JSON would carry it: toJSON applied (dates), undefined dropped, non-finite numbers null. */
function asJson(value: unknown): Prisma.InputJsonValue {
  const text = JSON.stringify(value);
  return text === undefined ? (null as unknown as Prisma.InputJsonValue) : JSON.parse(text);
}

/**
 * JSON with every object's keys sorted (by UTF-16 code units, as RFC 8785), no whitespace, and
 * numbers as JavaScript prints them: equal values give equal text whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${write(o[k])}`)
        .join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return write(asJson(value));
}

/** A market file's coverage as a calendar date (market dates are stored as dates at midnight UTC). */
function dateOf(value: Date | string | null): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0+)?Z)?$/.test(value) ? value.slice(0, 10) : value;
}

/**
 * Stores the result of an analytics POST as an artifact of the caller's organization and records
 * `artifact.created` in the same transaction; the bus hears of it after the commit.
 */
export async function storeArtifact(ctx: Context, input: ArtifactInput): Promise<{ id: string; contentHash: string; createdAt: Date; manifest: ArtifactManifest }> {
  const orgId = requireOrg(ctx);
  const result = asJson(Object.fromEntries(Object.entries(input.result).filter(([key]) => !notResult.has(key)))) as Prisma.InputJsonObject;
  const contentHash = sha256Hex(canonicalJson(result));
  const inputs = asJson(input.request ?? null);
  const manifest: ArtifactManifest = {
    inputs,
    sources: [...input.sources]
      .sort((a, b) => (a.sourceKey < b.sourceKey ? -1 : a.sourceKey > b.sourceKey ? 1 : 0))
      .map((s) => ({ sourceKey: s.sourceKey, kind: s.kind, subject: s.subject, vintage: s.vintage ?? null, firstDate: dateOf(s.firstDate), lastDate: dateOf(s.lastDate) })),
    model: input.model ?? null,
    window: input.window ? { from: input.window.from, to: input.window.to, days: input.window.days } : null,
    contentHash,
  };
  const id = newId('art');
  const [row, event] = await ctx.prisma.$transaction(async (tx) => {
    const created = await tx.artifact.create({
      data: { id, orgId, kind: input.kind, route: input.route, title: input.title, requestId: ctx.requestId, request: inputs, result, manifest: manifest as unknown as Prisma.InputJsonObject, contentHash },
      select: { id: true, createdAt: true },
    });
    const recorded = await recordEvent(tx, 'artifact.created', orgId, { artifactId: id, kind: input.kind, route: input.route, contentHash }, ctx.requestId);
    return [created, recorded] as const;
  });
  await publishAll(ctx.bus, [event]);
  return { id: row.id, contentHash, createdAt: row.createdAt, manifest };
}

/** The artifact of the caller's organization; another organization's is not found. */
export async function ownArtifact(ctx: Context, id: string): Promise<Pick<Artifact, 'id'>> {
  const artifact = await ctx.prisma.artifact.findFirst({ where: { id, orgId: requireOrg(ctx) }, select: { id: true } });
  if (!artifact) throw new ApiError('artifact_not_found', `No artifact ${id} in this organization.`);
  return artifact;
}

// --- the Markdown report ---

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== 'object';

/** A value as it was stored: numbers printed as JavaScript prints them, never re-rounded. */
function scalar(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  return String(v);
}

/** A table cell: one line, pipes escaped; nested values as inline JSON. */
function cell(v: Json | undefined): string {
  if (v === undefined) return '';
  const text = Array.isArray(v) && v.every(isScalar) ? (v.length ? v.map(scalar).join(', ') : '(none)') : isScalar(v) ? scalar(v as Json) : `\`${JSON.stringify(v)}\``;
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

function table(header: string[], rows: (Json | undefined)[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header.map((h) => cell(h))), line(header.map(() => '---')), ...rows.map((r) => line(r.map(cell)))].join('\n');
}

const heading = (level: number, text: string) => (level <= 6 ? `${'#'.repeat(level)} ${text}` : `**${text}**`);

/** Arrays of objects become tables (a column per key, in order of first appearance). */
function arrayBlock(items: Json[], level: number, name: string): string[] {
  if (!items.length) return ['(none)'];
  if (items.every(isObject)) {
    const columns = [...new Set(items.flatMap((item) => Object.keys(item as object)))];
    return [table(columns, items.map((item) => columns.map((c) => (item as Record<string, Json>)[c])))];
  }
  if (items.every(isScalar)) return [items.map((item) => `- ${cell(item)}`).join('\n')];
  return items.flatMap((item, i) => [heading(level, `${name} ${i + 1}`), ...block(item, level + 1, `${name} ${i + 1}`)]);
}

/** An object: its scalar fields as a key/value table, then a section per nested object or list. */
function objectBlock(value: Record<string, Json>, level: number): string[] {
  const entries = Object.entries(value);
  if (!entries.length) return ['(empty)'];
  const flat = entries.filter(([, v]) => isScalar(v) || (Array.isArray(v) && v.every(isScalar) && v.length <= 20));
  const nested = entries.filter((entry) => !flat.includes(entry));
  const out: string[] = [];
  if (flat.length) out.push(table(['Field', 'Value'], flat.map(([k, v]) => [k, v])));
  for (const [key, v] of nested) out.push(heading(level, key), ...block(v, level + 1, key));
  return out;
}

function block(value: Json, level: number, name: string): string[] {
  if (Array.isArray(value)) return arrayBlock(value, level, name);
  if (isObject(value)) return objectBlock(value, level);
  return [cell(value)];
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : d);

/** One line of text: newlines folded, for a list item. */
const line = (v: Json | undefined) => (v === undefined || v === null ? '' : scalar(v).replace(/\r?\n/g, ' '));

/** A country report (kind `country_report`): each section as a list of statements, each with its citations. */
function countryReportBlock(result: Record<string, Json>): string[] {
  const out: string[] = [
    table(
      ['Field', 'Value'],
      ['country', 'asOf', 'method', 'version', 'basis'].map((k) => [k, result[k]]).concat([['regime', isObject(result.regime) ? result.regime.name : null]]),
    ),
  ];
  const sections: [string, string][] = [['summary', 'Summary'], ['keyDrivers', 'Key drivers'], ['watchItems', 'Watch items'], ['implications', 'Implications']];
  for (const [key, title] of sections) {
    const statements = Array.isArray(result[key]) ? (result[key] as Json[]).filter(isObject) : [];
    out.push(`### ${title}`);
    if (!statements.length) {
      out.push('(none)');
      continue;
    }
    out.push(
      statements
        .map((s) => {
          const citations = Array.isArray(s.citations) ? s.citations.filter(isObject) : [];
          const cites = citations.map((c) => `${line(c.seriesId)} ${line(c.date)} = ${line(c.value)} (${line(c.role)}; ${line(c.fileName ?? c.sourceKey)}, vintage ${line(c.vintage ?? 'not stated')})`);
          return [`- **${line(s.rule)}** ${line(s.text)}`, ...cites.map((c) => `  - ${c}`)].join('\n');
        })
        .join('\n'),
    );
  }
  if (Array.isArray(result.rules)) {
    const rules = result.rules.filter(isObject);
    out.push('### Rules', table(['Rule', 'Section', 'Statement rule'], rules.map((r) => [r.id, r.section, r.rule])));
  }
  if (Array.isArray(result.sources)) out.push('### Series read', ...arrayBlock(result.sources, 4, 'source'));
  return out;
}

/** Result renderers of kinds that read better than the generic tables; every other kind uses `block`. */
const resultRenderers: Record<string, (result: Record<string, Json>) => string[]> = {
  country_report: countryReportBlock,
};

/**
 * The artifact as a readable report: its title, the manifest (how it was made: request, inputs,
 * market files with their vintages, model, window, content hash) and the result as tables.
 */
export function artifactMarkdown(artifact: ArtifactRow): string {
  const manifest = (isObject(artifact.manifest) ? artifact.manifest : {}) as Partial<Record<keyof ArtifactManifest, Json>>;
  const sources = Array.isArray(manifest.sources) ? (manifest.sources as Record<string, Json>[]) : [];
  const window = isObject(manifest.window) ? (manifest.window as { from: Json; to: Json; days: Json }) : null;
  const inputs = (manifest.inputs ?? null) as Json;
  const out: string[] = [
    `# ${artifact.title.replace(/\r?\n/g, ' ')}`,
    table(
      ['Field', 'Value'],
      [
        ['Artifact', artifact.id],
        ['Kind', artifact.kind],
        ['Made by', artifact.route],
        ['Request id', artifact.requestId],
        ['Created', iso(artifact.createdAt)],
        ['Content hash (sha256)', artifact.contentHash],
      ],
    ),
    '## Manifest',
    table(
      ['Field', 'Value'],
      [
        ['Model', (manifest.model ?? null) as Json],
        ['Window', window ? `${scalar(window.from)} to ${scalar(window.to)} (${scalar(window.days)} days)` : null],
        ['Content hash (sha256)', (manifest.contentHash ?? artifact.contentHash) as Json],
      ],
    ),
    '### Sources',
    sources.length
      ? table(
          ['Source', 'Kind', 'Subject', 'Vintage', 'First date', 'Last date'],
          sources.map((s) => [s.sourceKey, s.kind, s.subject, s.vintage ?? null, s.firstDate ?? null, s.lastDate ?? null]),
        )
      : '(none: no market file was read)',
    '### Inputs',
    ...block(inputs, 4, 'input'),
    '## Result',
    ...(resultRenderers[artifact.kind] && isObject(artifact.result) ? resultRenderers[artifact.kind]!(artifact.result) : block((artifact.result ?? null) as Json, 3, 'item')),
  ];
  return `${out.join('\n\n')}\n`;
}
