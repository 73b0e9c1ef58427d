// Who the filings name as investment advisers and managers, merged into one entry per adviser.
// A Form 13F names its filing manager by CIK (and, optionally, CRD and SEC file number) and the
// other managers of its cover and summary pages; an N-CEN names each fund's advisers and
// sub-advisers by SEC file number, CRD and LEI, never by CIK. Mentions sharing a CIK, CRD, SEC
// file number, Form 13F file number or LEI are one adviser; a mention with none of them is known by
// its name alone. The directory is built once per change of the data (kept in the data cache past
// its TTL while the ingest's data version stays, dropped when an ingest commits): 13F information
// tables are summed in the database, not read.
import type { Form13fData, Form13fManagerRef } from '../ingest/parsers/ownership/form13f.ts';
import type { NcenData, NcenSeries, NcenServiceProvider } from '../ingest/parsers/funds/ncen.ts';
import { isoDay } from '../derived/citations.ts';
import { dataVersion, type DataReader } from '../derived/dataCache.ts';
import type { PeriodRecord } from './ownership.ts';

export const adviserRoles = ['13f_filer', '13f_other_manager', 'investment_adviser', 'sub_adviser'] as const;
export type AdviserRole = (typeof adviserRoles)[number];

/** The filing a directory row comes from: cited (its SEC URL) when shown, not when the directory is built. */
export interface FilingRef {
  accessionNumber: string | null;
  /** the CIK the filing is filed under, for its URL */
  filingCik: string | null;
}

/** A filing that names the adviser, with what it states of it. */
export interface AdviserMention extends FilingRef {
  formType: string;
  filedAt: string | null;
  role: AdviserRole;
  sourceSection: string;
  nameAsFiled: string | null;
  cik: string | null;
  crd: string | null;
  secFileNumber: string | null;
  form13FFileNumber: string | null;
  lei: string | null;
  /** how many items of the filing name the adviser so (an N-CEN names it once per fund series) */
  timesNamed: number;
}

/** A fund series the adviser advises or sub-advises, as its registrant's latest N-CEN states. */
export interface FundAdvised extends FilingRef {
  seriesId: string | null;
  fundName: string | null;
  registrantCik: string | null;
  registrantName: string | null;
  role: 'investment_adviser' | 'sub_adviser';
  isAffiliated: boolean | null;
  formType: string;
  filedAt: string | null;
  reportPeriodEnd: string | null;
  sourceSection: string;
}

/** A 13F record without its information table (`data.holdings` is empty when one is held, null when not). */
export interface Light13f extends PeriodRecord {
  accessionNumber: string | null;
  cik: string | null;
  periodOfReport: Date | null;
  data: PeriodRecord['data'] & Pick<Form13fData, 'reportType' | 'summary' | 'valueUnit' | 'valueUnitReason'>;
}

export interface AdviserEntry {
  id: string | null;
  cik: string | null;
  crd: string | null;
  name: string | null;
  otherNames: string[];
  secFileNumber: string | null;
  form13FFileNumber: string | null;
  lei: string | null;
  roles: AdviserRole[];
  /** newest filing first */
  mentions: AdviserMention[];
  funds: FundAdvised[];
  /** the adviser's own 13F reports (as filing manager), newest period first */
  filings13f: Light13f[];
}

/* identifiers ------------------------------------------------------------------------------- */

/** CRD numbers are written with and without leading zeros (N-CEN pads to nine digits). */
export const crdKey = (crd: string | null | undefined) => (crd && /^\d+$/.test(crd.trim()) ? String(Number(crd.trim())) : null);
export const cikKey = (cik: string | null | undefined) => (cik && /^\d{1,10}$/.test(cik.trim()) ? cik.trim().padStart(10, '0') : null);
const fileKey = (value: string | null | undefined) => (value?.trim() ? value.trim().toUpperCase() : null);
const nameKey = (name: string | null) => (name ?? '').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();

function keysOf(m: AdviserMention): string[] {
  const keys = [
    cikKey(m.cik) && `cik:${cikKey(m.cik)}`,
    crdKey(m.crd) && `crd:${crdKey(m.crd)}`,
    fileKey(m.secFileNumber) && `sec:${fileKey(m.secFileNumber)}`,
    fileKey(m.form13FFileNumber) && `13f:${fileKey(m.form13FFileNumber)}`,
    fileKey(m.lei) && `lei:${fileKey(m.lei)}`,
  ].filter((k): k is string => !!k);
  return keys.length ? keys : nameKey(m.nameAsFiled) ? [`name:${nameKey(m.nameAsFiled)}`] : [];
}

/* reads ------------------------------------------------------------------------------------- */

interface Light13fRow {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  data: Light13f['data'] & Pick<Form13fData, 'manager' | 'otherReportingManagers' | 'includedManagers'>;
}

async function light13fRecords(reader: DataReader): Promise<Light13fRow[]> {
  // `d` is the record without its information table, detoasted once (OFFSET 0 keeps it computed
  // once per row): each -> on the stored column would read the whole table again.
  return reader.prisma.$queryRaw<Light13fRow[]>`
    SELECT "id", "accessionNumber", "formType", "cik", "filedAt", "periodOfReport",
      jsonb_build_object(
        'isAmendment', d->'isAmendment', 'amendmentNumber', d->'amendmentNumber', 'amendmentType', d->'amendmentType',
        'reportType', d->'reportType', 'summary', d->'summary', 'valueUnit', d->'valueUnit', 'valueUnitReason', d->'valueUnitReason', 'manager', d->'manager',
        'otherReportingManagers', coalesce(d->'otherReportingManagers', '[]'::jsonb), 'includedManagers', coalesce(d->'includedManagers', '[]'::jsonb),
        'holdings', CASE WHEN "hasTable" THEN '[]'::jsonb END
      ) AS "data"
    FROM "FormRecord"
    CROSS JOIN LATERAL (SELECT "data" - 'holdings' AS d, jsonb_typeof("data"->'holdings') = 'array' AS "hasTable" OFFSET 0) light
    WHERE "family" = '13F' AND NOT "isSample"
    ORDER BY "periodOfReport" DESC NULLS LAST, "orderedAt" DESC, "id" DESC`;
}

/** What the directory reads of an N-CEN: the registrant and, per series, its name, id and advisers. */
interface CensusRow {
  id: string;
  accessionNumber: string | null;
  formType: string;
  cik: string | null;
  filedAt: Date | null;
  periodOfReport: Date | null;
  registrant: Pick<NcenData['registrant'], 'cik' | 'name'>;
  reportPeriodEnd: string | null;
  series: Pick<NcenSeries, 'name' | 'seriesId' | 'investmentAdvisers' | 'subAdvisers'>[];
}

/**
 * The latest N-CEN of each registrant (the funds family's census rule: an annual census restates
 * every series), only the parts naming advisers: the rest of an N-CEN (custodians, brokers,
 * directors) is most of its size.
 */
async function censusAdvisers(reader: DataReader): Promise<CensusRow[]> {
  // `d` is the stored document detoasted once per row (OFFSET 0 keeps it computed once)
  return reader.prisma.$queryRaw<CensusRow[]>`
    SELECT DISTINCT ON (coalesce("cik", d->'registrant'->>'cik', "id"))
      "id", "accessionNumber", "formType", "cik", "filedAt", "periodOfReport",
      jsonb_build_object('cik', d->'registrant'->'cik', 'name', d->'registrant'->'name') AS "registrant",
      d->>'reportPeriodEnd' AS "reportPeriodEnd",
      coalesce((SELECT jsonb_agg(jsonb_build_object('name', s->'name', 'seriesId', s->'seriesId', 'investmentAdvisers', coalesce(s->'investmentAdvisers', '[]'::jsonb), 'subAdvisers', coalesce(s->'subAdvisers', '[]'::jsonb)) ORDER BY n)
                FROM jsonb_array_elements(d->'series') WITH ORDINALITY AS e(s, n)), '[]'::jsonb) AS "series"
    FROM "FormRecord"
    CROSS JOIN LATERAL (SELECT jsonb_build_object('registrant', "data"->'registrant', 'reportPeriodEnd', "data"->'reportPeriodEnd', 'series', "data"->'series') AS d OFFSET 0) census
    WHERE "family" = 'NCEN' AND NOT "isSample"
    ORDER BY coalesce("cik", d->'registrant'->>'cik', "id"), "orderedAt" DESC, "id" DESC`;
}

/* mentions ---------------------------------------------------------------------------------- */

function managerMention(r: Light13fRow, m: Form13fManagerRef, section: string): AdviserMention {
  return { accessionNumber: r.accessionNumber, filingCik: r.cik, formType: r.formType, filedAt: isoDay(r.filedAt), role: '13f_other_manager', sourceSection: section, nameAsFiled: m.name, cik: m.cik, crd: m.crdNumber, secFileNumber: m.secFileNumber, form13FFileNumber: m.form13FFileNumber, lei: null, timesNamed: 1 };
}

function mentionsOf13f(r: Light13fRow): AdviserMention[] {
  const d = r.data;
  const own: AdviserMention = {
    accessionNumber: r.accessionNumber,
    filingCik: r.cik,
    formType: r.formType,
    filedAt: isoDay(r.filedAt),
    role: '13f_filer',
    sourceSection: 'coverPage/filingManager (the filing manager), headerData/filerInfo (its CIK)',
    nameAsFiled: d.manager?.name ?? null,
    cik: d.manager?.cik ?? r.cik,
    crd: d.manager?.crdNumber ?? null,
    secFileNumber: d.manager?.secFileNumber ?? null,
    form13FFileNumber: d.manager?.form13FFileNumber ?? null,
    lei: null,
    timesNamed: 1,
  };
  return [
    own,
    ...(d.otherReportingManagers ?? []).map((m, i) => managerMention(r, m, `coverPage/otherManagersInfo/otherManager[${i + 1}]`)),
    ...(d.includedManagers ?? []).map((m, i) => managerMention(r, m, `summaryPage/otherManagers2Info/otherManager2[${i + 1}]`)),
  ];
}

/* the directory ----------------------------------------------------------------------------- */

interface Group {
  mentions: AdviserMention[];
  funds: FundAdvised[];
  cik: string | null;
}

/** Groups mentions sharing an identifier; two different CIKs are never merged (a CRD typed wrongly must not join two filers). */
function groupMentions(items: { mention: AdviserMention; fund?: FundAdvised }[]): Group[] {
  const groups: (Group | null)[] = [];
  const byKey = new Map<string, number>();
  for (const { mention, fund } of items) {
    const keys = keysOf(mention);
    if (!keys.length) continue;
    const cik = cikKey(mention.cik);
    let target = -1;
    for (const key of keys) {
      const found = byKey.get(key);
      if (found === undefined) continue;
      const group = groups[found]!;
      if (target === -1) {
        if (cik && group.cik && group.cik !== cik) continue;
        target = found;
      } else if (found !== target) {
        const into = groups[target]!;
        if (into.cik && group.cik && into.cik !== group.cik) continue;
        into.mentions.push(...group.mentions);
        into.funds.push(...group.funds);
        into.cik ??= group.cik;
        groups[found] = null;
        for (const [k, v] of byKey) if (v === found) byKey.set(k, target);
      }
    }
    if (target === -1) {
      groups.push({ mentions: [], funds: [], cik: null });
      target = groups.length - 1;
    }
    const group = groups[target]!;
    group.mentions.push(mention);
    if (fund) group.funds.push(fund);
    group.cik ??= cik;
    for (const key of keys) if (!byKey.has(key)) byKey.set(key, target);
  }
  return groups.filter((g): g is Group => g !== null);
}

/** The newest value a mention states, mentions being newest first. */
const newest = <K extends keyof AdviserMention>(mentions: AdviserMention[], key: K) => mentions.find((m) => m[key] !== null && m[key] !== '')?.[key] ?? null;

/** One mention per filing and role that names the adviser the same way, counting its items. */
function collapsed(mentions: AdviserMention[]): AdviserMention[] {
  const byWay = new Map<string, AdviserMention>();
  for (const m of mentions) {
    const way = [m.accessionNumber ?? m.sourceSection, m.formType, m.role, m.nameAsFiled, m.cik, m.crd, m.secFileNumber, m.form13FFileNumber, m.lei].join('|');
    const held = byWay.get(way);
    if (held) held.timesNamed += 1;
    else byWay.set(way, { ...m });
  }
  return [...byWay.values()];
}

function entryOf(group: Group, filings13f: Map<string, Light13f[]>): AdviserEntry {
  const mentions = collapsed(group.mentions).sort((a, b) => (b.filedAt ?? '').localeCompare(a.filedAt ?? '') || adviserRoles.indexOf(a.role) - adviserRoles.indexOf(b.role));
  const cik = group.cik;
  // the filing manager's own name on its latest 13F is the name it goes by; else the newest mention's
  const name = (cik ? mentions.find((m) => m.role === '13f_filer')?.nameAsFiled : null) ?? newest(mentions, 'nameAsFiled');
  const crd = newest(mentions, 'crd');
  const roles = adviserRoles.filter((role) => mentions.some((m) => m.role === role));
  const seen = new Set<string>();
  const funds = group.funds.filter((f) => {
    const key = `${f.registrantCik}|${f.seriesId ?? f.fundName}|${f.role}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  funds.sort((a, b) => (a.registrantName ?? '').localeCompare(b.registrantName ?? '') || (a.fundName ?? '').localeCompare(b.fundName ?? '') || a.role.localeCompare(b.role));
  return {
    id: cik ?? (crdKey(crd) ? `crd-${crdKey(crd)}` : null),
    cik,
    crd,
    name,
    otherNames: [...new Set(mentions.map((m) => m.nameAsFiled).filter((n): n is string => !!n && nameKey(n) !== nameKey(name)))],
    secFileNumber: newest(mentions, 'secFileNumber'),
    form13FFileNumber: newest(mentions, 'form13FFileNumber'),
    lei: newest(mentions, 'lei'),
    roles,
    mentions,
    funds,
    filings13f: cik ? (filings13f.get(cik) ?? []) : [],
  };
}

async function buildDirectory(reader: DataReader): Promise<AdviserEntry[]> {
  const [rows13f, census] = await Promise.all([light13fRecords(reader), censusAdvisers(reader)]);
  const items: { mention: AdviserMention; fund?: FundAdvised }[] = [];
  const filings13f = new Map<string, Light13f[]>();
  rows13f.forEach((r) => {
    items.push(...mentionsOf13f(r).map((mention) => ({ mention })));
    const cik = cikKey(r.data.manager?.cik ?? r.cik);
    if (!cik) return;
    const { manager: _manager, otherReportingManagers: _other, includedManagers: _included, ...data } = r.data;
    filings13f.set(cik, [...(filings13f.get(cik) ?? []), { ...r, data }]);
  });
  census.forEach((r) => {
    r.series.forEach((s, si) => {
      const advisers: [NcenServiceProvider, 'investment_adviser' | 'sub_adviser', string][] = [
        ...s.investmentAdvisers.map((a, ai) => [a, 'investment_adviser', `investmentAdvisers/investmentAdviser[${ai + 1}]`] as [NcenServiceProvider, 'investment_adviser', string]),
        ...s.subAdvisers.map((a, ai) => [a, 'sub_adviser', `subAdvisers/subAdviser[${ai + 1}]`] as [NcenServiceProvider, 'sub_adviser', string]),
      ];
      for (const [a, role, item] of advisers) {
        const sourceSection = `managementInvestmentQuestionSeriesInfo/managementInvestmentQuestion[${si + 1}]/${item} (Part C, item C.9)`;
        const base = { accessionNumber: r.accessionNumber, filingCik: r.cik, formType: r.formType, filedAt: isoDay(r.filedAt), sourceSection };
        items.push({
          mention: { ...base, role, nameAsFiled: a.name, cik: null, crd: a.crdNumber, secFileNumber: a.fileNumber, form13FFileNumber: null, lei: a.lei, timesNamed: 1 },
          fund: { ...base, seriesId: s.seriesId, fundName: s.name, registrantCik: r.registrant.cik ?? r.cik, registrantName: r.registrant.name, role, isAffiliated: a.isAffiliated, reportPeriodEnd: r.reportPeriodEnd ?? isoDay(r.periodOfReport) },
        });
      }
    });
  });
  return groupMentions(items)
    .map((g) => entryOf(g, filings13f))
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'en', { sensitivity: 'base' }) || (a.id ?? '').localeCompare(b.id ?? ''));
}

/** Every adviser the held filings name, by name; built once per version of the data, which is itself kept until an ingest commits. */
export async function adviserDirectory(reader: DataReader): Promise<AdviserEntry[]> {
  return reader.cache.data.versioned('advisers:directory', await dataVersion(reader), () => buildDirectory(reader));
}
