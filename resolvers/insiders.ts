// The Insiders family: Forms 3, 4 and 5 (and their amendments) as the ingest stores them
// (FormRecord rows of family OWNERSHIP, `data` shaped by ingest/parsers/ownership/insiderForms.ts), read as
// transactions, per-issuer summaries and whole filings.
//
// The amendment rule: a 3/A, 4/A or 5/A supersedes the filings it amends, which are the earlier
// filings of the same base form (3, 4 or 5), the same issuer, the same reporting owners (by CIK)
// and the same period of report. When the amendment states the date of the original submission,
// only the originals filed that day are superseded (with every earlier amendment of the group);
// otherwise every earlier filing of the group is. The latest amendment of a group is the one in
// force: a superseded filing's rows are left out of lists and summaries unless asked for, and
// say which filing superseded them.
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { OwnershipData, FootnoteRefs, OwnershipReportingOwner } from '../ingest/parsers/ownership/insiderForms.ts';
import { ApiError } from '../core/errors.ts';
import { z } from 'zod';
import { cursorDay, pageCursor } from '../core/cursor.ts';
import { requireDataAccess } from './access.ts';
import { isoDay } from '../derived/citations.ts';
import type { Context } from './context.ts';
import { addDecimals, formatDecimal, parseDecimal, roundToDecimals, subtractDecimals } from '../core/decimal.ts';
import { ciksFor } from './entities.ts';
import { citeRecords, companyCiks } from './ownership.ts';

const family = 'OWNERSHIP';

/** The transaction codes of Forms 4 and 5 (General Instruction 8), a fixed table. */
export const transactionCodes: Record<string, string> = {
  P: 'Open market or private purchase',
  S: 'Open market or private sale',
  V: 'Transaction voluntarily reported earlier than required',
  A: 'Grant, award or other acquisition from the issuer (Rule 16b-3(d))',
  D: 'Disposition to the issuer (Rule 16b-3(e))',
  F: 'Payment of exercise price or tax liability by delivering or withholding securities (tax withholding)',
  I: 'Discretionary transaction (Rule 16b-3(f))',
  M: 'Exercise or conversion of a derivative security exempted under Rule 16b-3 (option exercise)',
  C: 'Conversion of a derivative security',
  E: 'Expiration of a short derivative position',
  H: 'Expiration or cancellation of a long derivative position with value received',
  O: 'Exercise of an out-of-the-money derivative security',
  X: 'Exercise of an in-the-money or at-the-money derivative security',
  G: 'Bona fide gift',
  L: 'Small acquisition (Rule 16a-6)',
  W: 'Acquisition or disposition by will or the laws of descent and distribution',
  Z: 'Deposit into or withdrawal from a voting trust',
  J: 'Other acquisition or disposition (described in the footnotes)',
  K: 'Transaction in an equity swap or similar instrument',
  U: 'Disposition pursuant to a tender of shares in a change of control transaction',
};

export type Role = 'officer' | 'director' | 'ten_percent_owner' | 'other';
/** The order a summary attributes a transaction to one role by. */
const rolePrecedence: Role[] = ['officer', 'director', 'ten_percent_owner', 'other'];

export interface InsiderOwner {
  cik: string | null;
  name: string | null;
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  isTenPercentOwner: boolean;
  isOther: boolean;
  otherText: string | null;
  roles: Role[];
}

export interface FootnoteRef {
  field: string;
  id: string;
  text: string | null;
}

export interface NullReason {
  field: string;
  reason: string;
}

export interface Provenance {
  formId: string;
  accessionNumber: string | null;
  formType: string;
  filedAt: string | null;
  periodOfReport: string | null;
  citationUrl: string | null;
  /** why citationUrl is null (the families' shared reason); null when it is set */
  citationNullReason: string | null;
  isAmendment: boolean;
  supersededBy: string | null;
}

export type Table = 'non_derivative' | 'derivative';

export interface InsiderTransaction extends Provenance {
  id: string;
  table: Table;
  /** where in the document: `nonDerivativeTable/nonDerivativeTransaction[2]` (1-based) */
  sourceField: string;
  issuerCik: string | null;
  issuerName: string | null;
  issuerTicker: string | null;
  owners: InsiderOwner[];
  securityTitle: string | null;
  transactionDate: string | null;
  deemedExecutionDate: string | null;
  transactionCode: string | null;
  transactionCodeMeaning: string | null;
  equitySwapInvolved: boolean | null;
  timeliness: string | null;
  acquiredDisposed: 'acquired' | 'disposed' | null;
  shares: number | null;
  pricePerShare: number | null;
  value: number | null;
  totalValue: number | null;
  sharesOwnedFollowing: number | null;
  valueOwnedFollowing: number | null;
  ownership: 'direct' | 'indirect' | null;
  natureOfOwnership: string | null;
  conversionOrExercisePrice: number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingShares: number | null;
  underlyingValue: number | null;
  footnotes: FootnoteRef[];
  nullReasons: NullReason[];
}

export interface InsiderHolding {
  table: Table;
  sourceField: string;
  securityTitle: string | null;
  sharesOwned: number | null;
  valueOwned: number | null;
  ownership: 'direct' | 'indirect' | null;
  natureOfOwnership: string | null;
  conversionOrExercisePrice: number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingShares: number | null;
  footnotes: FootnoteRef[];
}

export interface InsiderFiling extends Provenance {
  documentType: string;
  issuerCik: string | null;
  issuerName: string | null;
  issuerTicker: string | null;
  dateOfOriginalSubmission: string | null;
  supersedes: string[];
  noSecuritiesOwned: boolean | null;
  aff10b5One: boolean | null;
  owners: InsiderOwner[];
  transactions: InsiderTransaction[];
  holdings: InsiderHolding[];
  footnotes: { id: string; text: string }[];
  remarks: string | null;
  signatures: { name: string | null; date: string | null }[];
}

type FormRow = { id: string; accessionNumber: string | null; formType: string; cik: string | null; filedAt: Date | null; periodOfReport: Date | null; orderedAt: Date; parties: Prisma.JsonValue; data: Prisma.JsonValue };

const select = { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, periodOfReport: true, orderedAt: true, parties: true, data: true } as const;

/* values ----------------------------------------------------------------------------------- */

const baseForm = (formType: string) => formType.replace(/\/A$/, '');
const isAmendmentType = (formType: string) => /\/A$/.test(formType);

function ownerOf(o: OwnershipReportingOwner): InsiderOwner {
  const roles: Role[] = [];
  if (o.isOfficer) roles.push('officer');
  if (o.isDirector) roles.push('director');
  if (o.isTenPercentOwner) roles.push('ten_percent_owner');
  if (o.isOther) roles.push('other');
  return { cik: o.cik, name: o.name, isDirector: o.isDirector, isOfficer: o.isOfficer, officerTitle: o.officerTitle, isTenPercentOwner: o.isTenPercentOwner, isOther: o.isOther, otherText: o.otherText, roles };
}

function footnotesOf(refs: FootnoteRefs | undefined, texts: Record<string, string>): FootnoteRef[] {
  return Object.entries(refs ?? {}).flatMap(([field, ids]) => ids.map((id) => ({ field, id, text: texts[id] ?? null })));
}

/** shares × price, exact, rounded to the cent */
function valueOf(shares: number | null, price: number | null): number | null {
  if (shares === null || price === null) return null;
  const a = parseDecimal(String(shares));
  const b = parseDecimal(String(price));
  return Number(roundToDecimals(formatDecimal({ digits: a.digits * b.digits, places: a.places + b.places }), 2));
}

function reasonFor(field: string, value: unknown, refs: FootnoteRefs | undefined, otherwise: string): NullReason | null {
  if (value !== null) return null;
  const ids = refs?.[field];
  return { field, reason: ids?.length ? `No value is stated; footnote ${ids.join(', ')} explains` : otherwise };
}

const direction = (code: string | null) => (code === 'A' ? 'acquired' : code === 'D' ? 'disposed' : null);
const ownershipOf = (code: string | null) => (code === 'D' ? 'direct' : code === 'I' ? 'indirect' : null);

type Row = OwnershipData['nonDerivativeTransactions'][number] & Partial<OwnershipData['derivativeTransactions'][number]>;

function transactionsOf(form: FormRow, provenance: Provenance, tables: Table[]): InsiderTransaction[] {
  const data = form.data as unknown as OwnershipData;
  const owners = data.reportingOwners.map(ownerOf);
  const out: InsiderTransaction[] = [];
  for (const table of tables) {
    const rows: Row[] = (table === 'derivative' ? data.derivativeTransactions : data.nonDerivativeTransactions) ?? [];
    const path = table === 'derivative' ? 'derivativeTable/derivativeTransaction' : 'nonDerivativeTable/nonDerivativeTransaction';
    rows.forEach((r, i) => {
      const refs = r.footnoteRefs;
      const value = valueOf(r.shares, r.pricePerShare);
      const nullReasons = [
        reasonFor('transactionDate', r.transactionDate, refs, 'Not stated in the filing'),
        reasonFor('shares', r.shares, refs, r.totalValue !== null ? 'Reported as a total value (totalValue), not as shares' : 'Not stated in the filing'),
        reasonFor('pricePerShare', r.pricePerShare, refs, 'Not stated in the filing'),
        value === null ? { field: 'value', reason: 'Shares or price per share is not stated, so the value is not computed' } : null,
        reasonFor('sharesOwnedFollowing', r.sharesOwnedFollowing, refs, r.valueOwnedFollowing !== null ? 'Reported as a value (valueOwnedFollowing), not as shares' : 'Not stated in the filing'),
        provenance.citationNullReason === null ? null : { field: 'citationUrl', reason: provenance.citationNullReason },
      ].filter((x): x is NullReason => x !== null);
      out.push({
        ...provenance,
        id: `itx_${form.id}_${table === 'derivative' ? 'd' : 'n'}${i + 1}`,
        table,
        sourceField: `${path}[${i + 1}]`,
        issuerCik: data.issuer.cik,
        issuerName: data.issuer.name,
        issuerTicker: data.issuer.tradingSymbol,
        owners,
        securityTitle: r.securityTitle,
        transactionDate: r.transactionDate,
        deemedExecutionDate: r.deemedExecutionDate,
        transactionCode: r.transactionCode,
        transactionCodeMeaning: r.transactionCode ? (transactionCodes[r.transactionCode] ?? null) : null,
        equitySwapInvolved: r.equitySwapInvolved,
        timeliness: r.timeliness === 'E' ? 'early' : r.timeliness === 'L' ? 'late' : null,
        acquiredDisposed: direction(r.acquiredDisposed),
        shares: r.shares,
        pricePerShare: r.pricePerShare,
        value,
        totalValue: r.totalValue,
        sharesOwnedFollowing: r.sharesOwnedFollowing,
        valueOwnedFollowing: r.valueOwnedFollowing,
        ownership: ownershipOf(r.directOrIndirect),
        natureOfOwnership: r.natureOfOwnership,
        conversionOrExercisePrice: r.conversionOrExercisePrice ?? null,
        exerciseDate: r.exerciseDate ?? null,
        expirationDate: r.expirationDate ?? null,
        underlyingSecurityTitle: r.underlyingSecurityTitle ?? null,
        underlyingShares: r.underlyingSecurityShares ?? null,
        underlyingValue: r.underlyingSecurityValue ?? null,
        footnotes: footnotesOf(refs, data.footnotes),
        nullReasons,
      });
    });
  }
  return out;
}

function holdingsOf(form: FormRow): InsiderHolding[] {
  const data = form.data as unknown as OwnershipData;
  const build = (table: Table, path: string) => (h: OwnershipData['derivativeHoldings'][number] | OwnershipData['nonDerivativeHoldings'][number], i: number): InsiderHolding => {
    const d = h as Partial<OwnershipData['derivativeHoldings'][number]>;
    return {
      table,
      sourceField: `${path}[${i + 1}]`,
      securityTitle: h.securityTitle,
      sharesOwned: h.sharesOwnedFollowing,
      valueOwned: h.valueOwnedFollowing,
      ownership: ownershipOf(h.directOrIndirect),
      natureOfOwnership: h.natureOfOwnership,
      conversionOrExercisePrice: d.conversionOrExercisePrice ?? null,
      exerciseDate: d.exerciseDate ?? null,
      expirationDate: d.expirationDate ?? null,
      underlyingSecurityTitle: d.underlyingSecurityTitle ?? null,
      underlyingShares: d.underlyingSecurityShares ?? null,
      footnotes: footnotesOf(h.footnoteRefs, data.footnotes),
    };
  };
  return [
    ...(data.nonDerivativeHoldings ?? []).map(build('non_derivative', 'nonDerivativeTable/nonDerivativeHolding')),
    ...(data.derivativeHoldings ?? []).map(build('derivative', 'derivativeTable/derivativeHolding')),
  ];
}

/* amendments ------------------------------------------------------------------------------- */

const ownerKey = (form: FormRow) =>
  ((form.data as unknown as OwnershipData).reportingOwners ?? [])
    .map((o) => o.cik ?? o.name ?? '')
    .sort()
    .join(',');
const groupKey = (form: FormRow) => `${baseForm(form.formType)}|${form.cik}|${isoDay(form.periodOfReport)}|${ownerKey(form)}`;
/** a was filed after b: by filing date (else period), then an amendment after an original, then by id */
const later = (a: FormRow, b: FormRow) => {
  const at = a.orderedAt.getTime() - b.orderedAt.getTime();
  if (at !== 0) return at > 0;
  const amended = Number(isAmendmentType(a.formType)) - Number(isAmendmentType(b.formType));
  return amended !== 0 ? amended > 0 : a.id > b.id;
};
const label = (f: FormRow) => f.accessionNumber ?? f.id;

/** Which amendment supersedes each of `forms` (form id → the amendment's accession or id). */
async function supersessions(ctx: Context, forms: FormRow[]): Promise<Map<string, string>> {
  const keyed = forms.filter((f) => f.cik && f.periodOfReport);
  if (!keyed.length) return new Map();
  const pairs = [...new Map(keyed.map((f) => [`${f.cik}|${isoDay(f.periodOfReport)}`, { cik: f.cik!, periodOfReport: f.periodOfReport! }])).values()];
  const amendments = (await ctx.prisma.formRecord.findMany({
    where: { family, isSample: false, formType: { endsWith: '/A' }, OR: pairs },
    select,
  })) as FormRow[];
  return supersede(forms, amendments);
}

/** supersessions() over amendments already read (those of the forms' issuers and periods, at least). */
function supersede(forms: FormRow[], amendments: FormRow[]): Map<string, string> {
  const result = new Map<string, string>();
  for (const form of forms) {
    const key = groupKey(form);
    const candidates = amendments.filter((a) => a.id !== form.id && groupKey(a) === key && later(a, form));
    const amending = candidates.filter((a) => {
      const original = (a.data as unknown as OwnershipData).dateOfOriginalSubmission;
      // an amendment naming its original's date supersedes the originals filed that day and earlier amendments
      if (!original || isAmendmentType(form.formType) || !form.filedAt) return true;
      return isoDay(form.filedAt) === original;
    });
    const latest = amending.reduce<FormRow | null>((best, a) => (!best || later(a, best) ? a : best), null);
    if (latest) result.set(form.id, label(latest));
  }
  return result;
}

/**
 * One filing's place in its amendment group: which amendment supersedes it, and (for an
 * amendment) which earlier filings it supersedes. One query: the filings of its issuer and period.
 */
async function amendmentState(ctx: Context, form: FormRow): Promise<{ supersededBy: Map<string, string>; supersedes: string[] }> {
  if (!form.cik || !form.periodOfReport) return { supersededBy: new Map(), supersedes: [] };
  const group = (await ctx.prisma.formRecord.findMany({ where: { family, isSample: false, cik: form.cik, periodOfReport: form.periodOfReport }, select })) as FormRow[];
  const amendments = group.filter((f) => isAmendmentType(f.formType));
  const earlier = isAmendmentType(form.formType) ? group.filter((f) => f.id !== form.id && groupKey(f) === groupKey(form) && later(form, f)) : [];
  const by = supersede(earlier, amendments);
  return { supersededBy: supersede([form], amendments), supersedes: earlier.filter((f) => by.get(f.id) === label(form)).map(label) };
}

/* reads ------------------------------------------------------------------------------------ */

async function provenanceOf(ctx: Context, forms: FormRow[], superseded: Map<string, string>): Promise<Map<string, Provenance>> {
  const cited = await citeRecords(ctx, forms);
  return new Map(
    forms.map((f, i) => [
      f.id,
      {
        formId: f.id,
        accessionNumber: f.accessionNumber,
        formType: f.formType,
        filedAt: isoDay(f.filedAt),
        periodOfReport: isoDay(f.periodOfReport),
        citationUrl: cited[i]!.citationUrl,
        citationNullReason: cited[i]!.citationNullReason,
        isAmendment: isAmendmentType(f.formType),
        supersededBy: superseded.get(f.id) ?? null,
      },
    ]),
  );
}

export interface TransactionFilter {
  ticker?: string | null;
  cik?: string | null;
  ownerCik?: string | null;
  table: Table;
  codes?: string[] | null;
  acquiredDisposed?: string | null;
  from?: string | null;
  to?: string | null;
  filedFrom?: string | null;
  filedTo?: string | null;
  includeSuperseded?: boolean | null;
}

/**
 * The filings that can hold matching rows: by issuer (its CIKs, null when not named), insider
 * and filing dates, and, as a superset that keep() narrows row by row, the rows' codes and direction.
 */
async function formWhere(ctx: Context, args: TransactionFilter): Promise<{ where: Prisma.FormRecordWhereInput; issuerCiks: string[] | null }> {
  const and: Prisma.FormRecordWhereInput[] = [];
  const issuerCiks = args.ticker || args.cik ? await companyCiks(ctx, args) : null;
  if (issuerCiks) and.push({ cik: { in: issuerCiks } });
  if (args.ownerCik) {
    const owners = await ciksFor(ctx, { cik: args.ownerCik });
    if (!owners) throw new ApiError('entity_not_found', `No insider with CIK ${args.ownerCik} is known.`, { details: { parameter: 'owner_cik' } });
    and.push({ OR: owners.map((cik) => ({ parties: { array_contains: [{ cik, role: 'reporting_owner' }] } })) });
  }
  if (args.filedFrom || args.filedTo) and.push({ filedAt: { ...(args.filedFrom ? { gte: new Date(args.filedFrom) } : {}), ...(args.filedTo ? { lte: new Date(args.filedTo) } : {}) } });
  if (args.codes?.length || args.acquiredDisposed) {
    // a row as stored: the code, and the direction as filed (A or D)
    const filed = args.acquiredDisposed ? { acquiredDisposed: args.acquiredDisposed === 'acquired' ? 'A' : args.acquiredDisposed === 'disposed' ? 'D' : args.acquiredDisposed } : {};
    const rows = args.codes?.length ? args.codes.map((transactionCode) => ({ transactionCode, ...filed })) : [filed];
    const path = [args.table === 'derivative' ? 'derivativeTransactions' : 'nonDerivativeTransactions'];
    and.push({ OR: rows.map((row) => ({ data: { path, array_contains: [row] } })) });
  }
  return { where: { family, isSample: false, AND: and }, issuerCiks };
}

function keep(t: InsiderTransaction, args: TransactionFilter): boolean {
  if (t.supersededBy && !args.includeSuperseded) return false;
  if (args.codes?.length && !args.codes.includes(t.transactionCode ?? '')) return false;
  if (args.acquiredDisposed && t.acquiredDisposed !== args.acquiredDisposed) return false;
  if (args.from && (!t.transactionDate || t.transactionDate < args.from)) return false;
  if (args.to && (!t.transactionDate || t.transactionDate > args.to)) return false;
  return true;
}

interface Cursor {
  orderedAt: string;
  formId: string;
  row: number;
}
/** Newest filed first, then the form id, then the row within the filing. */
const transactionsCursor = pageCursor(
  'insider-transactions',
  z.tuple([cursorDay, z.string(), z.number().int().min(0)]).transform(([orderedAt, formId, row]): Cursor => ({ orderedAt, formId, row })),
);

const batchSize = 200;

/**
 * Transactions of the filings that match, newest filed first, then in the order the filing
 * lists them. Pages by keyset over (orderedAt, form id, row), scanning filings in batches.
 */
export async function listTransactions(ctx: Context, args: TransactionFilter, first: number, after: string | null) {
  requireDataAccess(ctx);
  const { where } = await formWhere(ctx, args);
  const cursor = after ? transactionsCursor.decode(after) : null;
  const found: { tx: InsiderTransaction; place: [orderedAt: string, formId: string, row: number] }[] = [];
  let position: Cursor | null = cursor;
  for (;;) {
    const page = (await ctx.prisma.formRecord.findMany({
      where: position
        ? { AND: [where, { OR: [{ orderedAt: { lt: new Date(position.orderedAt) } }, { orderedAt: new Date(position.orderedAt), id: { lte: position.formId } }] }] }
        : where,
      orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }],
      take: batchSize,
      select,
    })) as FormRow[];
    const superseded = await supersessions(ctx, page);
    const provenance = await provenanceOf(ctx, page, superseded);
    for (const form of page) {
      const at = form.orderedAt.toISOString().slice(0, 10);
      transactionsOf(form, provenance.get(form.id)!, [args.table]).forEach((tx, i) => {
        if (position && form.id === position.formId && i + 1 <= position.row) return;
        if (keep(tx, args)) found.push({ tx, place: [at, form.id, i + 1] });
      });
      if (found.length > first) break;
    }
    if (found.length > first || page.length < batchSize) break;
    const last = page[page.length - 1]!;
    // past every row of the batch's last filing
    position = { orderedAt: last.orderedAt.toISOString().slice(0, 10), formId: last.id, row: Number.MAX_SAFE_INTEGER };
  }
  const shown = found.slice(0, first);
  return {
    records: shown.map((f) => ({ record: f.tx, cursor: transactionsCursor.encode(f.place) })),
    hasMore: found.length > first,
    endCursor: shown.length ? transactionsCursor.encode(shown[shown.length - 1]!.place) : null,
  };
}

/* summary ---------------------------------------------------------------------------------- */

export interface Flow {
  transactions: number;
  shares: string;
  value: string;
  unpricedTransactions: number;
}
export interface RoleSummary {
  role: Role;
  insiders: number;
  bought: Flow;
  sold: Flow;
  netShares: string;
  netValue: string;
  otherAcquiredShares: string;
  otherDisposedShares: string;
}
export interface InsiderSummary {
  cik: string;
  from: string | null;
  to: string | null;
  filings: number;
  transactions: number;
  total: Omit<RoleSummary, 'role'>;
  roles: RoleSummary[];
  sources: Provenance[];
}

const emptyFlow = (): Flow => ({ transactions: 0, shares: '0', value: '0', unpricedTransactions: 0 });

function addFlow(flow: Flow, t: InsiderTransaction) {
  flow.transactions += 1;
  flow.shares = addDecimals(flow.shares, String(t.shares ?? 0));
  if (t.value === null) flow.unpricedTransactions += 1;
  else flow.value = addDecimals(flow.value, String(t.value));
}

function summarize(rows: InsiderTransaction[]): Omit<RoleSummary, 'role'> {
  const bought = emptyFlow();
  const sold = emptyFlow();
  let otherAcquired = '0';
  let otherDisposed = '0';
  const insiders = new Set<string>();
  for (const t of rows) {
    for (const o of t.owners) insiders.add(o.cik ?? o.name ?? '');
    if (t.transactionCode === 'P') addFlow(bought, t);
    else if (t.transactionCode === 'S') addFlow(sold, t);
    else if (t.acquiredDisposed === 'acquired') otherAcquired = addDecimals(otherAcquired, String(t.shares ?? 0));
    else if (t.acquiredDisposed === 'disposed') otherDisposed = addDecimals(otherDisposed, String(t.shares ?? 0));
  }
  return {
    insiders: insiders.size,
    bought,
    sold,
    netShares: subtractDecimals(bought.shares, sold.shares),
    netValue: subtractDecimals(bought.value, sold.value),
    otherAcquiredShares: otherAcquired,
    otherDisposedShares: otherDisposed,
  };
}

/** The role a transaction counts under: the highest in rolePrecedence any of its filing's owners holds. */
function primaryRole(owners: InsiderOwner[]): Role {
  return rolePrecedence.find((r) => owners.some((o) => o.roles.includes(r))) ?? 'other';
}

export async function insiderSummary(ctx: Context, args: { ticker?: string | null; cik?: string | null; from?: string | null; to?: string | null }): Promise<InsiderSummary> {
  requireDataAccess(ctx);
  if (!args.ticker && !args.cik) throw new ApiError('invalid_query_parameter', 'Name the issuer with ticker or cik.', { details: { parameter: 'ticker', acceptedValues: ['ticker', 'cik'] } });
  const filter: TransactionFilter = { ticker: args.ticker, cik: args.cik, table: 'non_derivative', from: args.from, to: args.to };
  const { where, issuerCiks } = await formWhere(ctx, filter);
  const forms = (await ctx.prisma.formRecord.findMany({ where, orderBy: [{ orderedAt: 'desc' }, { id: 'desc' }], select })) as FormRow[];
  const superseded = await supersessions(ctx, forms);
  const provenance = await provenanceOf(ctx, forms, superseded);
  const rows = forms.flatMap((f) => transactionsOf(f, provenance.get(f.id)!, ['non_derivative'])).filter((t) => keep(t, filter));
  const used = new Set(rows.map((r) => r.formId));
  return {
    cik: issuerCiks![0]!,
    from: args.from ?? null,
    to: args.to ?? null,
    filings: used.size,
    transactions: rows.length,
    total: summarize(rows),
    roles: rolePrecedence.map((role) => ({ role, ...summarize(rows.filter((r) => primaryRole(r.owners) === role)) })),
    sources: forms.filter((f) => used.has(f.id)).map((f) => provenance.get(f.id)!),
  };
}

/* one filing ------------------------------------------------------------------------------- */

export async function insiderFiling(ctx: Context, id: string): Promise<InsiderFiling | null> {
  requireDataAccess(ctx);
  const form = (await ctx.prisma.formRecord.findFirst({ where: { family, OR: [{ id }, { accessionNumber: id }] }, select })) as FormRow | null;
  if (!form) return null;
  const { supersededBy, supersedes } = await amendmentState(ctx, form);
  const provenance = (await provenanceOf(ctx, [form], supersededBy)).get(form.id)!;
  const data = form.data as unknown as OwnershipData;
  return {
    ...provenance,
    documentType: data.documentType,
    issuerCik: data.issuer.cik,
    issuerName: data.issuer.name,
    issuerTicker: data.issuer.tradingSymbol,
    dateOfOriginalSubmission: data.dateOfOriginalSubmission,
    supersedes,
    noSecuritiesOwned: data.noSecuritiesOwned,
    aff10b5One: data.aff10b5One,
    owners: data.reportingOwners.map(ownerOf),
    transactions: transactionsOf(form, provenance, ['non_derivative', 'derivative']),
    holdings: holdingsOf(form),
    footnotes: Object.entries(data.footnotes ?? {}).map(([fid, text]) => ({ id: fid, text })),
    remarks: data.remarks,
    signatures: data.signatures ?? [],
  };
}
