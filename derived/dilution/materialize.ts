// Builds companies' dilution records from what the service holds (XBRL facts, offering documents'
// parsed forms, 8-K filings and their items) and stores them, replacing what was stored for those
// companies: called in the ingest transaction that changes their facts, offering forms or filings,
// and on a read that finds a company never built or built by older rules.
import type { Db } from '../../prisma/db.ts';
import type { Fact } from '../../prisma/generated/client/client.ts';
import { insertRows, type Columns } from '../../prisma/unnestInsert.ts';
import type { OfferingDocument } from '../../ingest/parsers/offerings/offerings.ts';
import type { Cited, Confidence, DilutionTerms } from '../../ingest/parsers/offerings/dilutionTerms.ts';
import { complianceRegainedIn, exchangeNoticeIn, reverseSplitsIn, securitiesSaleIn } from '../../ingest/parsers/eightK/dilution.ts';
import { digest } from '../../core/rows.ts';
import { citationUrl, isoDay } from '../citations.ts';
import { babyShelfOf, runwayOf, runwayRule } from './rules.ts';

/**
 * Bump when what the builder writes changes: companies built by an older version are rebuilt on their next read.
 * 2: compliance notices carry a status (open, cured by a later regained-compliance 8-K, regained, unknown).
 * 5: what offering documents state as of a date (shares outstanding, public float, warrants outstanding)
 *    are records of their own; a shelf's baby-shelf limit names the newest float stated on or before the
 *    document and whether it establishes the capacity; offerings carry a status (preliminary, final).
 * 6: a final prospectus's count after the offering (as of its closing) and preferred stock as converted are
 *    records; warrants issued say whether a final document establishes them (and a total stated without its
 *    parts is one); sales of stock a document recounts are offerings; registration effectiveness (EFFECT) and
 *    Form 25 delisting notices are corporate actions; offering events carry the capitalization and economics.
 */
export const dilutionRulesVersion = 6;

export type DilutionKind =
  | 'shares_outstanding'
  | 'public_float'
  | 'cash_position'
  | 'warrant'
  | 'convertible'
  | 'reverse_split'
  | 'stock_split'
  | 'offering'
  | 'atm_program'
  | 'shelf'
  | 'lockup'
  | 'rofr'
  | 'compliance_notice'
  | 'corporate_action';

export type Method = 'xbrl_fact' | 'offering_document' | 'eight_k_item' | 'filing_index';

export interface DilutionRow {
  id: string;
  cik: string;
  kind: DilutionKind;
  isEvent: boolean;
  date: Date | null;
  orderedAt: Date;
  accessionNumber: string | null;
  form: string | null;
  filedAt: Date | null;
  fromIndexOnly: boolean;
  values: Record<string, unknown>;
  citationUrl: string | null;
  sourceSpan: string;
  confidence: Confidence;
  method: Method;
}

/** The 8-K items that tell of dilution: exchange compliance, charter amendments (reverse splits), material agreements, unregistered sales. */
export const dilutionItems = ['1.01', '3.01', '3.02', '5.03'] as const;
/** The offering forms whose filing, even known from the index alone, is a dilution event. */
const offeringForms = new Set(['S-1', 'S-1/A', 'S-3', 'S-3/A', 'S-3ASR', 'F-1', 'F-1/A', 'F-3', 'F-3/A', 'POS AM', '424B3', '424B4', '424B5']);
/**
 * The filings that are corporate actions of a registrant's securities: the SEC's notice that a
 * registration statement is effective (EFFECT), and the notification of removal from listing (Form 25
 * filed by the issuer, 25-NSE by the exchange).
 */
const actionForms = new Set(['EFFECT', '25', '25-NSE']);
const eightK = /^8-K(\/A)?$/;

const xbrlTags = {
  sharesOutstanding: [{ taxonomy: 'dei', tag: 'EntityCommonStockSharesOutstanding' }],
  publicFloat: [{ taxonomy: 'dei', tag: 'EntityPublicFloat' }],
  cash: [
    { taxonomy: 'us-gaap', tag: 'CashAndCashEquivalentsAtCarryingValue' },
    { taxonomy: 'ifrs-full', tag: 'CashAndCashEquivalents' },
  ],
  operatingCashFlow: [
    { taxonomy: 'us-gaap', tag: 'NetCashProvidedByUsedInOperatingActivities' },
    { taxonomy: 'ifrs-full', tag: 'CashFlowsFromUsedInOperatingActivities' },
  ],
  warrant: ['ClassOfWarrantOrRightOutstanding', 'ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1', 'ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights', 'ClassOfWarrantOrRightNumberOfSecuritiesCalledByEachWarrantOrRight'],
  split: ['StockholdersEquityReverseStockSplit', 'StockholdersEquityNoteStockSplitConversionRatio1'],
};
const convertiblePrefixes = ['DebtInstrumentConvertible', 'PreferredStockConvertible'];

const id = (...parts: (string | number | null | undefined)[]): string => `dil_${digest(...parts)}`;

const epoch = new Date('1900-01-01T00:00:00.000Z');


interface FilingInfo {
  accessionNumber: string;
  form: string;
  filedAt: Date | null;
  reportDate: Date | null;
  items: string[];
  primaryDocument: string | null;
  documentSourceKey: string | null;
  fileNumber?: string | null;
}

/**
 * Replaces the dilution records of these companies with what their held data says, and marks them
 * built by this version of the rules. Runs in the caller's transaction; a handful of statements
 * whatever the number of companies.
 */
export async function materializeDilution(db: Db, ciks: string[]): Promise<number> {
  const companies = [...new Set(ciks)].filter(Boolean);
  if (!companies.length) return 0;
  const [facts, forms, filings, documentEvents] = await Promise.all([
    db.fact.findMany({
      where: {
        cik: { in: companies },
        OR: [
          ...[...xbrlTags.sharesOutstanding, ...xbrlTags.publicFloat, ...xbrlTags.cash, ...xbrlTags.operatingCashFlow].map(({ taxonomy, tag }) => ({ taxonomy, tag })),
          { taxonomy: 'us-gaap', tag: { in: [...xbrlTags.warrant, ...xbrlTags.split] } },
          ...convertiblePrefixes.map((prefix) => ({ taxonomy: 'us-gaap', tag: { startsWith: prefix } })),
        ],
      },
      orderBy: [{ filedAt: 'asc' }, { accessionNumber: 'asc' }, { id: 'asc' }],
    }),
    db.formRecord.findMany({ where: { cik: { in: companies }, family: 'OFFERING' }, orderBy: { id: 'asc' } }),
    db.filing.findMany({
      where: { cik: { in: companies }, OR: [{ form: { in: [...offeringForms, ...actionForms] } }, { form: { in: ['8-K', '8-K/A'] }, items: { hasSome: [...dilutionItems] } }] },
      select: { accessionNumber: true, cik: true, form: true, filedAt: true, reportDate: true, items: true, primaryDocument: true, documentSourceKey: true, fileNumber: true },
    }),
    db.filingEvent.findMany({ where: { cik: { in: companies }, fromIndexOnly: false, item: { in: [...dilutionItems] } }, orderBy: { id: 'asc' } }),
  ]);
  // the filings the facts cite, for their citation URL and form
  const factAccessions = [...new Set(facts.map((f) => f.accessionNumber))];
  const cited = new Map<string, FilingInfo>();
  for (const f of filings) cited.set(f.accessionNumber, f);
  const missing = factAccessions.filter((a) => !cited.has(a));
  if (missing.length) {
    for (const f of await db.filing.findMany({ where: { accessionNumber: { in: missing } }, select: { accessionNumber: true, form: true, filedAt: true, reportDate: true, items: true, primaryDocument: true, documentSourceKey: true } })) cited.set(f.accessionNumber, f);
  }
  // each list split by company once (a whole EDGAR index can name thousands of companies)
  const [factsOf, formsOf, filingsOf, eventsOf] = [byCompany(facts), byCompany(forms), byCompany(filings), byCompany(documentEvents)];
  const rows: DilutionRow[] = [];
  for (const cik of companies) {
    const [companyForms, companyFilings] = [formsOf(cik), filingsOf(cik)];
    const xbrl = xbrlRows(cik, factsOf(cik), cited);
    rows.push(...xbrl);
    rows.push(...offeringRows(cik, companyForms, cited, xbrl.filter((r) => r.kind === 'public_float')));
    const eightKs = eightKRows(cik, companyFilings, eventsOf(cik));
    rows.push(...eightKs);
    rows.push(...recountedSplits(cik, companyForms, cited, [...xbrl, ...eightKs]));
    rows.push(...indexOfferingRows(cik, companyFilings, new Set(companyForms.map((f) => f.accessionNumber).filter((a): a is string => !!a))));
    rows.push(...recountedOfferings(cik, companyForms, cited));
    rows.push(...registrationActions(cik, companyFilings, companyForms, cited));
  }
  await db.dilutionRecord.deleteMany({ where: { cik: { in: companies } } });
  const written = await insertRows(db, 'DilutionRecord', dilutionColumns, rows, { onConflict: 'ON CONFLICT DO NOTHING', batch: 2000 });
  await db.dilutionProfile.deleteMany({ where: { cik: { in: companies } } });
  await db.dilutionProfile.createMany({ data: companies.map((cik) => ({ cik, version: dilutionRulesVersion })), skipDuplicates: true });
  return written;
}

const dilutionColumns: Columns<DilutionRow> = [
  ['id', 'text', (r) => r.id],
  ['cik', 'text', (r) => r.cik],
  ['kind', 'text', (r) => r.kind],
  ['isEvent', 'boolean', (r) => r.isEvent],
  ['date', 'date', (r) => r.date],
  ['orderedAt', 'date', (r) => r.orderedAt],
  ['accessionNumber', 'text', (r) => r.accessionNumber],
  ['form', 'text', (r) => r.form],
  ['filedAt', 'date', (r) => r.filedAt],
  ['fromIndexOnly', 'boolean', (r) => r.fromIndexOnly],
  ['values', 'jsonb', (r) => r.values],
  ['citationUrl', 'text', (r) => r.citationUrl],
  ['sourceSpan', 'text', (r) => r.sourceSpan],
  ['confidence', 'text', (r) => r.confidence],
  ['method', 'text', (r) => r.method],
];

/** The rows of each company, in their order. */
function byCompany<T extends { cik: string | null }>(list: T[]): (cik: string) => T[] {
  const groups = new Map<string | null, T[]>();
  for (const r of list) {
    const group = groups.get(r.cik);
    if (group) group.push(r);
    else groups.set(r.cik, [r]);
  }
  return (cik) => groups.get(cik) ?? [];
}

/** The companies of these filings whose dilution records the filings change: the ones with dilution-relevant filings. */
export function dilutionRelevant(filing: { form: string; items?: string[] | null }): boolean {
  return offeringForms.has(filing.form) || actionForms.has(filing.form) || (eightK.test(filing.form) && (filing.items ?? []).some((i) => (dilutionItems as readonly string[]).includes(i)));
}

// ---------------------------------------------------------------------------------------------
// XBRL facts

const contextOf = (f: Fact) => {
  const dims = Object.entries(f.dimensions as Record<string, string>).sort(([a], [b]) => a.localeCompare(b));
  const period = f.periodStart ? `duration ${isoDay(f.periodStart)} to ${isoDay(f.periodEnd)}` : `instant ${isoDay(f.periodEnd)}`;
  return { period, dims, key: `${isoDay(f.periodStart) ?? ''}|${isoDay(f.periodEnd)}|${dims.map(([a, m]) => `${a}=${m}`).join(';')}` };
};

function spanOf(f: Fact): string {
  const { period, dims } = contextOf(f);
  return `${f.taxonomy}:${f.tag}, context ${period}${dims.length ? ` [${dims.map(([a, m]) => `${a}=${m}`).join(', ')}]` : ''}, unit ${f.unit}`;
}

/** The same value of the same context reported again by later filings: the first filing that reported it. */
function firstReported(facts: Fact[]): Fact[] {
  const seen = new Map<string, Fact>();
  for (const f of facts) {
    const key = `${f.taxonomy}|${f.tag}|${f.unit}|${contextOf(f).key}|${f.value}`;
    if (!seen.has(key)) seen.set(key, f); // facts come oldest filing first
  }
  return [...seen.values()];
}

function citeFact(cik: string, f: Fact, cited: Map<string, FilingInfo>) {
  const filing = cited.get(f.accessionNumber);
  return { accessionNumber: f.accessionNumber, form: f.form ?? filing?.form ?? null, filedAt: f.filedAt ?? filing?.filedAt ?? null, citationUrl: citationUrl(cik, f.accessionNumber, filing?.primaryDocument) };
}

function xbrlRow(cik: string, kind: DilutionKind, f: Fact, cited: Map<string, FilingInfo>, values: Record<string, unknown>, extra: Partial<DilutionRow> = {}): DilutionRow {
  const date = f.periodEnd;
  return {
    id: id('xbrl', cik, kind, f.taxonomy, f.tag, f.unit, contextOf(f).key, f.accessionNumber),
    cik,
    kind,
    isEvent: false,
    date,
    orderedAt: date,
    ...citeFact(cik, f, cited),
    fromIndexOnly: false,
    values,
    sourceSpan: spanOf(f),
    confidence: 'high',
    method: 'xbrl_fact',
    ...extra,
  };
}

const classOf = (f: Fact) => {
  const dims = contextOf(f).dims;
  return dims.length ? Object.fromEntries(dims) : null;
};

function xbrlRows(cik: string, all: Fact[], cited: Map<string, FilingInfo>): DilutionRow[] {
  const facts = firstReported(all);
  const rows: DilutionRow[] = [];
  const is = (f: Fact, list: { taxonomy: string; tag: string }[]) => list.some((t) => t.taxonomy === f.taxonomy && t.tag === f.tag);

  for (const f of facts.filter((x) => is(x, xbrlTags.sharesOutstanding))) {
    rows.push(xbrlRow(cik, 'shares_outstanding', f, cited, { shares: f.value, unit: f.unit, class: classOf(f), tag: `${f.taxonomy}:${f.tag}` }));
  }
  for (const f of facts.filter((x) => is(x, xbrlTags.publicFloat) && !x.hasDimensions)) {
    const floatDate = isoDay(f.periodEnd)!;
    rows.push(xbrlRow(cik, 'public_float', f, cited, { publicFloat: f.value, unit: f.unit, tag: `${f.taxonomy}:${f.tag}`, babyShelf: f.unit === 'USD' ? babyShelfOf(Number(f.value), floatDate) : null }));
  }

  // cash: one row per reported balance, with the 12-month operating cash flow and the runway it gives
  const flows = facts.filter((x) => is(x, xbrlTags.operatingCashFlow) && !x.hasDimensions && x.periodStart && twelveMonths(x.periodStart, x.periodEnd));
  for (const f of facts.filter((x) => is(x, xbrlTags.cash) && !x.hasDimensions && !x.periodStart)) {
    const flow = flowFor(f, flows);
    const runway = runwayOf(Number(f.value), flow ? Number(flow.value) : null);
    rows.push(
      xbrlRow(cik, 'cash_position', f, cited, {
        cash: f.value,
        unit: f.unit,
        tag: `${f.taxonomy}:${f.tag}`,
        operatingCashFlow12m: flow ? { value: flow.value, tag: `${flow.taxonomy}:${flow.tag}`, periodStart: isoDay(flow.periodStart), periodEnd: isoDay(flow.periodEnd), ...citeFact(cik, flow, cited), filedAt: isoDay(flow.filedAt), sourceSpan: spanOf(flow) } : null,
        ...runway,
        runwayRule,
      }),
    );
  }

  // warrants and convertibles: the values of one context first reported by one filing, together
  const grouped = (kind: 'warrant' | 'convertible', list: Fact[]) => {
    const groups = new Map<string, Fact[]>();
    for (const f of list) {
      const key = `${contextOf(f).key}|${f.accessionNumber}`;
      const group = groups.get(key);
      if (group) group.push(f);
      else groups.set(key, [f]);
    }
    for (const group of groups.values()) {
      const [first] = group as [Fact, ...Fact[]];
      const measures = Object.fromEntries(group.map((f) => [f.tag, { value: f.value, unit: f.unit }]));
      const values: Record<string, unknown> = { class: classOf(first), measures };
      if (kind === 'warrant') {
        values.outstanding = measures.ClassOfWarrantOrRightOutstanding?.value ?? null;
        values.exercisePrice = measures.ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1?.value ?? null;
      }
      rows.push({ ...xbrlRow(cik, kind, first, cited, values), id: id('xbrl-group', cik, kind, contextOf(first).key, first.accessionNumber), sourceSpan: group.map(spanOf).join('; ') });
    }
  };
  grouped('warrant', facts.filter((x) => x.taxonomy === 'us-gaap' && xbrlTags.warrant.includes(x.tag)));
  grouped('convertible', facts.filter((x) => x.taxonomy === 'us-gaap' && convertiblePrefixes.some((p) => x.tag.startsWith(p))));

  // splits: the ratio (a number over 1 multiplies the shares; under 1 divides them, a reverse split)
  for (const f of facts.filter((x) => x.taxonomy === 'us-gaap' && xbrlTags.split.includes(x.tag))) {
    const ratio = Number(f.value);
    const reverse = f.tag === 'StockholdersEquityReverseStockSplit' || (Number.isFinite(ratio) && ratio > 0 && ratio < 1);
    rows.push(
      xbrlRow(cik, reverse ? 'reverse_split' : 'stock_split', f, cited, {
        ratio: f.value,
        tag: `${f.taxonomy}:${f.tag}`,
        direction: reverse ? 'reverse' : 'forward',
        directionRule: 'StockholdersEquityReverseStockSplit is a reverse split; a conversion ratio under 1 is read as a reverse split and over 1 as a forward split (the taxonomy allows either writing, hence medium confidence)',
      }, { isEvent: true, confidence: f.tag === 'StockholdersEquityReverseStockSplit' ? 'high' : 'medium' }),
    );
  }
  return rows;
}

/** The split factor a reverse-split row states: 15 for '1-for-15', or 1 / an XBRL ratio under 1. */
function splitFactor(row: DilutionRow): number | null {
  const { factor, ratio } = row.values as { factor?: number; ratio?: string };
  if (typeof factor === 'number') return factor;
  const n = Number(ratio);
  return Number.isFinite(n) && n > 0 && n < 1 ? Math.round(1 / n) : Number.isFinite(n) && n > 1 ? Math.round(n) : null;
}

/**
 * Reverse splits an offering document recounts ("a 1-for-9 reverse split ... effective May 6,
 * 2025"): one record per split (ratio and effective date), cited from the earliest document that
 * recounts it, unless an 8-K Item 5.03 or an XBRL fact already records a split of that factor
 * within 400 days of that date. A recounted split without an effective date is not placed.
 */
function recountedSplits(cik: string, forms: OfferingForm[], cited: Map<string, FilingInfo>, recorded: DilutionRow[]): DilutionRow[] {
  const known = recorded.filter((r) => r.kind === 'reverse_split' && r.date);
  const byKey = new Map<string, DilutionRow>();
  const byFiling = [...forms].sort((a, b) => (a.filedAt?.getTime() ?? Infinity) - (b.filedAt?.getTime() ?? Infinity) || a.id.localeCompare(b.id));
  for (const form of byFiling) {
    const splits = (form.data as { dilutionTerms?: DilutionTerms }).dilutionTerms?.reverseSplits ?? [];
    for (const split of splits) {
      const { ratio, factor, effectiveDate } = split.value;
      if (!effectiveDate) continue;
      const key = `${ratio}|${effectiveDate}`;
      const date = new Date(`${effectiveDate}T00:00:00.000Z`);
      if (byKey.has(key) || known.some((r) => splitFactor(r) === factor && Math.abs(r.date!.getTime() - date.getTime()) <= 400 * 86_400_000)) continue;
      const filing = form.accessionNumber ? cited.get(form.accessionNumber) : undefined;
      byKey.set(key, {
        id: id('recounted-split', cik, ratio, effectiveDate),
        cik,
        kind: 'reverse_split',
        isEvent: true,
        date,
        orderedAt: date,
        accessionNumber: form.accessionNumber,
        form: (form.data as OfferingDocument).formType,
        filedAt: form.filedAt ?? filing?.filedAt ?? null,
        fromIndexOnly: false,
        values: { ratio, factor, effectiveDate, recountedBy: 'offering_document' },
        citationUrl: form.accessionNumber ? citationUrl(cik, form.accessionNumber, filing?.primaryDocument) : null,
        sourceSpan: split.sourceSpan,
        confidence: split.confidence,
        method: 'offering_document',
      });
    }
  }
  return [...byKey.values()];
}

/**
 * Sales of stock an offering document recounts as done ("On May 16, 2023, we … issued and sold in a
 * registered direct offering an aggregate of 601,851 shares …"): one offering record per sale (date and
 * type), cited from the earliest document that recounts it. Whether it is established as closed is the
 * recounting documents' standing: a final document's recital establishes it (`status: 'closed'`); one
 * only a preliminary document recounts (a registration statement not yet effective) is `possible`.
 */
function recountedOfferings(cik: string, forms: OfferingForm[], cited: Map<string, FilingInfo>): DilutionRow[] {
  const byKey = new Map<string, DilutionRow>();
  const byFiling = [...forms].sort((a, b) => (a.filedAt?.getTime() ?? Infinity) - (b.filedAt?.getTime() ?? Infinity) || a.id.localeCompare(b.id));
  for (const form of byFiling) {
    const doc = form.data as OfferingDocument & { dilutionTerms?: DilutionTerms };
    for (const sale of doc.dilutionTerms?.recountedOfferings ?? []) {
      const { date: day, offeringType, shares, preFundedWarrantShares } = sale.value;
      const key = `${day}|${offeringType}`;
      const established = !doc.isPreliminary;
      const known = byKey.get(key);
      if (known) {
        // a later final document that recounts the same sale establishes it
        if (established && known.values.status !== 'closed') Object.assign(known.values, { status: 'closed', establishedBy: { accessionNumber: form.accessionNumber, form: doc.formType, sourceSpan: sale.sourceSpan } });
        continue;
      }
      const filing = form.accessionNumber ? cited.get(form.accessionNumber) : undefined;
      const date = new Date(`${day}T00:00:00.000Z`);
      byKey.set(key, {
        id: id('recounted-offering', cik, day, offeringType),
        cik,
        kind: 'offering',
        isEvent: true,
        date,
        orderedAt: date,
        accessionNumber: form.accessionNumber,
        form: doc.formType,
        filedAt: form.filedAt ?? filing?.filedAt ?? null,
        fromIndexOnly: false,
        values: {
          offeringType,
          sharesOffered: shares,
          preFundedWarrantShares,
          recountedBy: 'offering_document',
          status: established ? 'closed' : 'possible',
          ...(established
            ? { establishedBy: { accessionNumber: form.accessionNumber, form: doc.formType, sourceSpan: sale.sourceSpan } }
            : { note: `Recounted by a ${doc.formType} that is a preliminary document (a registration statement not yet effective); the sale's own prospectus is not held, so it is possible, not established as closed.` }),
        },
        citationUrl: form.accessionNumber ? citationUrl(cik, form.accessionNumber, filing?.primaryDocument) : null,
        sourceSpan: sale.sourceSpan,
        confidence: sale.confidence,
        method: 'offering_document',
      });
    }
  }
  return [...byKey.values()];
}

/** The accession an EFFECT notice's index line names ("POS AM,0001193125-22-003676,2022-01-10"), and the form made effective. */
function effectNames(items: string[]): { form: string | null; accessionNumber: string | null; effectiveAt: string | null } {
  const accessionNumber = items.find((i) => /^\d{10}-\d{2}-\d{6}$/.test(i)) ?? null;
  const effectiveAt = items.find((i) => /^\d{4}-\d{2}-\d{2}/.test(i)) ?? null;
  const form = items.find((i) => i !== accessionNumber && i !== effectiveAt) ?? null;
  return { form, accessionNumber, effectiveAt };
}

/**
 * Registration effectiveness and delisting notices: an EFFECT notice of EDGAR's index (the SEC declares
 * the registration statement of a file number effective), a Form 25 (the issuer's notification of removal
 * from listing) or 25-NSE (the exchange's). An offering document that recounts the same action (a
 * registration "declared effective on April 2, 2025", "filed … on Form 25" on a date) cites its sentence
 * (`statedIn`); one that recounts an action the index does not hold is a record of its own, cited to
 * that sentence.
 */
function registrationActions(cik: string, filings: (FilingInfo & { cik: string })[], forms: OfferingForm[], cited: Map<string, FilingInfo>): DilutionRow[] {
  const rows: DilutionRow[] = [];
  const recounted = forms.flatMap((form) => {
    const doc = form.data as OfferingDocument & { dilutionTerms?: DilutionTerms };
    return (doc.dilutionTerms?.recountedActions ?? []).map((action) => ({ action, form, doc }));
  });
  const used = new Set<(typeof recounted)[number]>();
  for (const f of filings.filter((x) => actionForms.has(x.form))) {
    const day = isoDay(f.filedAt);
    const isEffect = f.form === 'EFFECT';
    const names = isEffect ? effectNames(f.items) : null;
    const action = isEffect ? 'registration_effective' : 'delisting_notice';
    const statement = recounted.find(
      (r) => r.action.value.action === action && r.action.value.date === day && (!isEffect || (r.action.value.fileNumber !== null && r.action.value.fileNumber === f.fileNumber)),
    );
    if (statement) used.add(statement);
    const values: Record<string, unknown> = isEffect
      ? { action, fileNumber: f.fileNumber ?? null, effectiveForm: names!.form, effectiveAccessionNumber: names!.accessionNumber, effectiveAt: names!.effectiveAt, itemTitle: 'Notice of effectiveness of a Securities Act registration statement (EFFECT)' }
      : { action, filedBy: f.form === '25-NSE' ? 'exchange' : 'issuer', fileNumber: f.fileNumber ?? null, itemTitle: f.form === '25-NSE' ? 'Notification of removal from listing filed by the exchange (Form 25-NSE)' : 'Notification of removal from listing and/or registration filed by the issuer (Form 25)' };
    if (statement) {
      const { sourceSpan, confidence, method } = statement.action;
      values.statedIn = { accessionNumber: statement.form.accessionNumber, form: statement.doc.formType, sourceSpan, confidence, method, ...(statement.action.value.exchange ? { exchange: statement.action.value.exchange, securities: statement.action.value.securities } : {}) };
    }
    rows.push({
      id: id('action', f.accessionNumber, action),
      cik,
      kind: 'corporate_action',
      isEvent: true,
      date: f.filedAt,
      orderedAt: f.filedAt ?? epoch,
      accessionNumber: f.accessionNumber,
      form: f.form,
      filedAt: f.filedAt,
      fromIndexOnly: f.documentSourceKey === null,
      values,
      citationUrl: citationUrl(cik, f.accessionNumber, f.primaryDocument),
      sourceSpan: `EDGAR index: form ${f.form} filed ${day ?? 'on an unknown date'}${f.fileNumber ? `, file number ${f.fileNumber}` : ''}${names?.form ? `, ${[names.form, names.accessionNumber, names.effectiveAt].filter(Boolean).join(', ')}` : ''}`,
      confidence: 'high',
      method: 'filing_index',
    });
  }
  // what a document recounts that no held index line records
  const seen = new Set<string>();
  for (const r of recounted) {
    if (used.has(r)) continue;
    const { action, date: day, fileNumber, exchange, securities } = r.action.value;
    const key = `${action}|${day}|${fileNumber ?? ''}`;
    if (seen.has(key) || rows.some((x) => x.values.action === action && isoDay(x.date) === day && (action !== 'registration_effective' || x.values.fileNumber === fileNumber))) continue;
    seen.add(key);
    const filing = r.form.accessionNumber ? cited.get(r.form.accessionNumber) : undefined;
    const date = new Date(`${day}T00:00:00.000Z`);
    rows.push({
      id: id('recounted-action', cik, action, day, fileNumber),
      cik,
      kind: 'corporate_action',
      isEvent: true,
      date,
      orderedAt: date,
      accessionNumber: r.form.accessionNumber,
      form: r.doc.formType,
      filedAt: r.form.filedAt ?? filing?.filedAt ?? null,
      fromIndexOnly: false,
      values: { action, fileNumber, ...(action === 'delisting_notice' ? { exchange, securities, filedBy: 'issuer' } : {}), recountedBy: 'offering_document' },
      citationUrl: r.form.accessionNumber ? citationUrl(cik, r.form.accessionNumber, filing?.primaryDocument) : null,
      sourceSpan: r.action.sourceSpan,
      confidence: r.action.confidence,
      method: 'offering_document',
    });
  }
  return rows;
}

function twelveMonths(start: Date, end: Date): boolean {
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  return days >= 350 && days <= 380;
}

/** The 12-month operating cash flow ending on the balance's date, else the latest one ending in the 12 months before it. */
function flowFor(cash: Fact, flows: Fact[]): Fact | null {
  const at = cash.periodEnd.getTime();
  const sameDay = flows.filter((f) => f.periodEnd.getTime() === at);
  if (sameDay.length) return sameDay[sameDay.length - 1]!; // the latest filing's value of that period
  const before = flows.filter((f) => f.periodEnd.getTime() < at && at - f.periodEnd.getTime() <= 366 * 86_400_000);
  before.sort((a, b) => a.periodEnd.getTime() - b.periodEnd.getTime() || (a.filedAt?.getTime() ?? 0) - (b.filedAt?.getTime() ?? 0));
  return before[before.length - 1] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Offering documents (their parsed cover page, and the dilution terms when the parser gave them)

interface OfferingForm {
  id: string;
  accessionNumber: string | null;
  formType: string;
  filedAt: Date | null;
  data: unknown;
}

function offeringRows(cik: string, forms: OfferingForm[], cited: Map<string, FilingInfo>, floats: DilutionRow[]): DilutionRow[] {
  const rows: DilutionRow[] = [];
  // the filing date, else the date the document gives itself (a preliminary read without its index entry)
  const dateOf = (form: OfferingForm): Date | null => {
    const filing = form.accessionNumber ? cited.get(form.accessionNumber) : undefined;
    const stated = (form.data as OfferingDocument).documentDate;
    return form.filedAt ?? filing?.filedAt ?? (stated ? new Date(`${stated}T00:00:00.000Z`) : null);
  };
  // every float a held document states, with its date: a later document's float may be newer than the one a
  // base prospectus repeats, and an earlier document's may be the newest one stated before a filing
  const statedFloats = forms.flatMap((form) => {
    const stated = (form.data as { dilutionTerms?: DilutionTerms }).dilutionTerms?.babyShelf.publicFloat;
    const asOf = stated ? (stated.asOf ?? isoDay(dateOf(form))) : null;
    if (!stated || !asOf) return [];
    const filing = form.accessionNumber ? cited.get(form.accessionNumber) : undefined;
    return [{ stated, asOf, documentDate: dateOf(form), accessionNumber: form.accessionNumber, citationUrl: form.accessionNumber ? citationUrl(cik, form.accessionNumber, filing?.primaryDocument) : null }];
  });
  for (const form of forms) {
    const doc = form.data as OfferingDocument;
    const filing = form.accessionNumber ? cited.get(form.accessionNumber) : undefined;
    const url = form.accessionNumber ? citationUrl(cik, form.accessionNumber, filing?.primaryDocument) : null;
    const kind: DilutionKind = doc.offeringType === 'atm' ? 'atm_program' : doc.offeringType === 'shelf' ? 'shelf' : 'offering';
    const filedAt = form.filedAt ?? filing?.filedAt ?? null;
    const date = dateOf(form);
    const terms = (form.data as { dilutionTerms?: DilutionTerms }).dilutionTerms;
    const babyShelf = /^S-3|^424B[35]$/.test(doc.formType) && date ? babyShelfFor(date, floats, statedFloats, form.accessionNumber, terms ?? null, doc.grossProceeds) : null;
    rows.push({
      id: id('offering', form.id, kind, 0),
      cik,
      kind,
      isEvent: true,
      date,
      orderedAt: date ?? epoch,
      accessionNumber: form.accessionNumber,
      form: doc.formType,
      filedAt,
      fromIndexOnly: false,
      values: {
        offeringType: doc.offeringType,
        securitiesOffered: doc.securitiesOffered,
        sharesOffered: doc.sharesOffered,
        pricePerShare: doc.pricePerShare,
        grossProceeds: doc.grossProceeds,
        maximumAggregateOffering: doc.maximumAggregateOffering,
        maximumAggregateOfferingSource: doc.maximumAggregateOfferingSource,
        ...(kind === 'atm_program' ? { programSize: doc.maximumAggregateOffering } : {}),
        ...(kind === 'shelf' ? { shelfSize: doc.maximumAggregateOffering } : {}),
        underwriters: doc.underwriters,
        placementAgents: doc.placementAgents,
        salesAgents: doc.salesAgents,
        isShelf: doc.isShelf,
        isPreliminary: doc.isPreliminary,
        // a preliminary supplement is an offering not yet priced: its blanks are unknown, not zero
        status: doc.isPreliminary ? 'preliminary' : 'final',
        blanks: doc.blanks ?? [],
        documentDate: doc.documentDate ?? null,
        exchange: doc.exchange,
        ticker: doc.ticker,
        registrationFileNumber: doc.registrationFileNumber,
        babyShelf: babyShelf ?? null,
      },
      citationUrl: url,
      sourceSpan: doc.excerpt || `${doc.formType} cover page`,
      confidence: doc.confidence ?? 'medium',
      method: 'offering_document',
    });
    if (terms) {
      const event = rows[rows.length - 1]!;
      event.values.terms = termsSummary(terms);
      rows.push(...termRows(cik, form.id, event, terms, doc));
      rows.push(...statedRows(cik, form.id, event, terms, doc));
    }
  }
  return rows;
}

/**
 * What a document states of the company as of a date of its own (shares outstanding, public float,
 * warrants outstanding): observations like the XBRL cover facts, dated by the "as of" the sentence
 * gives, so the share-float history and the score read them beside the facts.
 */
function statedRows(cik: string, formId: string, event: Pick<DilutionRow, 'accessionNumber' | 'form' | 'filedAt' | 'citationUrl'>, terms: DilutionTerms, doc: Pick<OfferingDocument, 'formType' | 'isPreliminary' | 'pricePerShare' | 'grossProceeds'>): DilutionRow[] {
  const rows: DilutionRow[] = [];
  const observed = (kind: DilutionKind, field: Pick<Cited<unknown>, 'asOf' | 'method' | 'sourceSpan' | 'confidence'>, values: Record<string, unknown>, ordinal = 'stated') => {
    const date = new Date(`${field.asOf}T00:00:00.000Z`);
    rows.push({
      id: id('offering', formId, kind, ordinal),
      cik,
      kind,
      isEvent: false,
      date,
      orderedAt: date,
      accessionNumber: event.accessionNumber,
      form: event.form,
      filedAt: event.filedAt,
      fromIndexOnly: false,
      values: { ...values, statedBy: 'offering_document', method: field.method },
      citationUrl: event.citationUrl,
      sourceSpan: field.sourceSpan,
      confidence: field.confidence,
      method: 'offering_document',
    });
  };
  const shares = terms.sharesOutstandingBefore;
  if (shares?.asOf) observed('shares_outstanding', shares, { shares: String(shares.value), unit: 'shares', class: null });
  const float = terms.babyShelf.publicFloat;
  if (float?.asOf) observed('public_float', float, { publicFloat: String(float.value), unit: 'USD', babyShelf: babyShelfOf(float.value, float.asOf) });
  const warrants = terms.warrantsOutstanding;
  if (warrants?.asOf) observed('warrant', warrants, { outstanding: String(warrants.value.shares), exercisePrice: warrants.value.weightedAverageExercisePrice, exercisePriceIs: 'weighted average' });
  // the count after the offering, as of its closing: only a final prospectus that prices the sale
  // establishes it (a preliminary one leaves it blank or may change)
  const after = terms.capitalization?.sharesOutstandingAfter;
  const priced = !doc.isPreliminary && /^424B/.test(doc.formType) && (doc.pricePerShare !== null || doc.grossProceeds !== null);
  if (after?.value != null && after.asOf && priced) {
    observed('shares_outstanding', { asOf: after.asOf, method: after.method!, sourceSpan: after.sourceSpan!, confidence: after.confidence! }, { shares: String(after.value), unit: 'shares', class: null, basis: 'after_offering' }, 'stated-after');
  }
  // preferred stock as converted is a convertible's overhang; "no preferred outstanding" says nothing of convertible notes
  const preferred = terms.capitalization?.preferredAsConverted;
  if (preferred?.value && preferred.asOf) {
    observed('convertible', { asOf: preferred.asOf, method: preferred.method!, sourceSpan: preferred.sourceSpan!, confidence: preferred.confidence! }, { instrument: 'preferred_stock', asConverted: String(preferred.value), preferredShares: preferred.preferredShares ?? null });
  }
  return rows;
}

/** Form S-3 General Instruction I.B.6 measures the float within 60 days before a sale. */
const floatWindowDays = 60;

/**
 * The baby-shelf limit of an S-3 or its prospectus, from the newest float stated on or before the
 * document's date: the XBRL public floats reported, and the floats the held documents state (this
 * one's, or an earlier one's), each with the date it gives. It names the float it used (source,
 * filing, sentence, date, age) and whether that float still measures the limit on the document's
 * date: one older than the rule's 60 days, or one whose limit this very document exceeds, does not,
 * so the capacity it gives is not established (capacity.established false, with the reason).
 */
function babyShelfFor(
  documentDate: Date,
  reported: DilutionRow[],
  stated: { stated: Cited<number>; asOf: string; documentDate: Date | null; accessionNumber: string | null; citationUrl: string | null }[],
  accessionNumber: string | null,
  terms: DilutionTerms | null,
  grossProceeds: number | null,
) {
  const day = isoDay(documentDate)!;
  const candidates = [
    ...stated
      .filter((s) => s.asOf <= day && (s.accessionNumber === accessionNumber || (s.documentDate && s.documentDate.getTime() <= documentDate.getTime())))
      .map((s) => ({ value: s.stated.value, asOf: s.asOf, floatSource: 'document' as const, accessionNumber: s.accessionNumber, citationUrl: s.citationUrl, sourceSpan: s.stated.sourceSpan, confidence: s.stated.confidence, own: s.accessionNumber === accessionNumber })),
    ...reported
      .filter((r) => r.date && isoDay(r.date)! <= day && r.values.unit === 'USD')
      .map((r) => ({ value: Number(r.values.publicFloat), asOf: isoDay(r.date)!, floatSource: 'xbrl' as const, accessionNumber: r.accessionNumber, citationUrl: r.citationUrl, sourceSpan: r.sourceSpan, confidence: r.confidence, own: false })),
  ];
  // newest first; on the same date the document's own statement, then another document's, then XBRL
  const rank = (c: (typeof candidates)[number]) => (c.own ? 0 : c.floatSource === 'document' ? 1 : 2);
  candidates.sort((a, b) => b.asOf.localeCompare(a.asOf) || rank(a) - rank(b));
  const float = candidates[0];
  if (!float) return null;
  const ageDays = Math.round((documentDate.getTime() - Date.parse(`${float.asOf}T00:00:00Z`)) / 86_400_000);
  const limit = babyShelfOf(float.value, float.asOf);
  const { floatSource, accessionNumber: floatAccession, citationUrl: floatUrl, sourceSpan, confidence, own } = float;
  const usd = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  // the capacity left: as the document prints it, or the float's third less the sales it states, when that float is the one used
  const printed = terms?.babyShelf.remainingCapacity ?? null;
  const sold = terms?.babyShelf.soldPrior12Months ?? null;
  const remaining = !limit.applies ? null : own && printed ? printed.value : sold ? Math.max(0, limit.capacity12m! - sold.value) : null;
  let reason: string | null = null;
  if (limit.applies && remaining === null) reason = `the document states no sales in the prior 12 months under I.B.6, so what is left of the ${usd(limit.capacity12m!)} limit is not known`;
  else if (ageDays > floatWindowDays) reason = `the newest float stated on or before the document is ${usd(float.value)} as of ${float.asOf}, ${ageDays} days before it; I.B.6 measures the float within ${floatWindowDays} days of a sale, so the limit on ${day} is not established by it`;
  if (limit.applies && remaining !== null && grossProceeds !== null && grossProceeds > remaining) {
    reason = `${reason ? `${reason}; and ` : ''}this document itself sells ${usd(grossProceeds)}, more than the ${usd(remaining)} that float leaves`;
  }
  return {
    ...limit,
    floatSource,
    floatAccessionNumber: floatAccession,
    floatCitationUrl: floatUrl,
    floatStatedIn: floatSource === 'xbrl' ? 'xbrl_fact' : own ? 'this_document' : 'earlier_document',
    floatAgeDays: ageDays,
    floatCurrent: ageDays <= floatWindowDays,
    sourceSpan,
    confidence,
    capacity: limit.applies ? { remaining, asOf: float.asOf, established: reason === null && remaining !== null, reason } : null,
  };
}

const valueOf = <T>(field: Cited<T> | null | undefined) => (field ? field.value : null);

/** The offering's own figures from the document's text, each with its sentence (null where the document states none). */
export function termsSummary(terms: DilutionTerms) {
  const cited = <T>(field: Cited<T> | null) => (field ? { value: field.value, sourceSpan: field.sourceSpan, confidence: field.confidence, method: field.method, asOf: field.asOf ?? null } : null);
  return {
    offeringType: cited(terms.offeringType),
    shelfTakedown: cited(terms.shelfTakedown),
    sharesOffered: cited(terms.sharesOffered),
    pricePerShare: cited(terms.pricePerShare),
    grossProceeds: cited(terms.grossProceeds),
    distributors: terms.distributors.map(cited),
    shelfSize: cited(terms.shelfSize),
    atmProgramSize: cited(terms.atmProgramSize),
    babyShelf: { publicFloat: cited(terms.babyShelf.publicFloat), oneThirdLimit: cited(terms.babyShelf.oneThirdLimit), soldPrior12Months: cited(terms.babyShelf.soldPrior12Months), remainingCapacity: cited(terms.babyShelf.remainingCapacity) },
    sharesOutstandingBefore: cited(terms.sharesOutstandingBefore),
    sharesOutstandingAfter: cited(terms.sharesOutstandingAfter),
    warrantsOutstanding: cited(terms.warrantsOutstanding ?? null),
    ntbvPerShareBefore: cited(terms.ntbvPerShareBefore),
    ntbvPerShareAfter: cited(terms.ntbvPerShareAfter),
    dilutionPerShare: cited(terms.dilutionPerShare),
    hasDilutionSection: terms.hasDilutionSection,
    // each figure with its text and where it is printed, null with the reason where the document states none
    capitalization: terms.capitalization ?? null,
    economics: terms.economics ?? null,
    failures: terms.failures,
  };
}

/** The instruments an offering document states: warrants issued, lock-ups, rights of first refusal; each a record linked to the offering by its filing. */
export function termRows(
  cik: string,
  formId: string,
  event: Pick<DilutionRow, 'date' | 'orderedAt' | 'accessionNumber' | 'form' | 'filedAt' | 'citationUrl'>,
  terms: DilutionTerms,
  document: { isPreliminary: boolean; offeringType?: string } = { isPreliminary: false },
): DilutionRow[] {
  const base = { cik, date: event.date, orderedAt: event.orderedAt, accessionNumber: event.accessionNumber, form: event.form, filedAt: event.filedAt, fromIndexOnly: false, citationUrl: event.citationUrl, method: 'offering_document' as const };
  const rows: DilutionRow[] = [];
  // a preliminary prospectus's warrants are offered, not yet issued; a final one establishes them, and so
  // does a resale registration, which registers the resale of securities the company has already issued
  const documentStatus = document.isPreliminary ? 'preliminary' : 'final';
  const established = !document.isPreliminary || document.offeringType === 'resale';
  terms.warrants.forEach((w, ordinal) => {
    const spans = [w.shares, w.exercisePrice, w.term].filter((f): f is NonNullable<typeof f> => !!f);
    if (!spans.length) return;
    rows.push({
      ...base,
      id: id('offering', formId, 'warrant', ordinal),
      kind: 'warrant',
      isEvent: true,
      values: { warrantKind: w.kind, series: w.series, shares: valueOf(w.shares), exercisePrice: valueOf(w.exercisePrice), term: valueOf(w.term), issuance: true, documentStatus, established },
      sourceSpan: [...new Set(spans.map((f) => f.sourceSpan))].join(' … '),
      confidence: lowest(spans.map((f) => f.confidence)),
    });
  });
  // "Series A Warrants … and Pre-Funded Warrants … to purchase up to an aggregate of 7,230,301 shares": the
  // total issued, when the document gives no warrant's own count
  const aggregate = terms.warrantSharesAggregate;
  if (aggregate && !terms.warrants.some((w) => w.shares)) {
    rows.push({
      ...base,
      id: id('offering', formId, 'warrant', 'aggregate'),
      kind: 'warrant',
      isEvent: true,
      values: { warrantKind: 'aggregate', kinds: [...new Set(terms.warrants.map((w) => w.kind))], series: null, shares: aggregate.value, exercisePrice: null, term: null, issuance: true, documentStatus, established },
      sourceSpan: aggregate.sourceSpan,
      confidence: aggregate.confidence,
    });
  }
  terms.lockups.forEach((l, ordinal) =>
    rows.push({ ...base, id: id('offering', formId, 'lockup', ordinal), kind: 'lockup', isEvent: false, values: { ...l.value }, sourceSpan: l.sourceSpan, confidence: l.confidence }),
  );
  terms.rightsOfFirstRefusal.forEach((r, ordinal) =>
    rows.push({ ...base, id: id('offering', formId, 'rofr', ordinal), kind: 'rofr', isEvent: false, values: { ...r.value }, sourceSpan: r.sourceSpan, confidence: r.confidence }),
  );
  return rows;
}

function lowest(confidences: Confidence[]): Confidence {
  return confidences.includes('low') ? 'low' : confidences.includes('medium') ? 'medium' : 'high';
}

/** Offering forms EDGAR's index names whose documents were not ingested: the event, marked index-only, with no terms. */
function indexOfferingRows(cik: string, filings: (FilingInfo & { cik: string })[], documented: Set<string>): DilutionRow[] {
  return filings
    .filter((f) => offeringForms.has(f.form) && !documented.has(f.accessionNumber))
    .map((f) => ({
      id: id('index', f.accessionNumber, 'offering'),
      cik,
      kind: 'offering' as const,
      isEvent: true,
      date: f.filedAt,
      orderedAt: f.filedAt ?? epoch,
      accessionNumber: f.accessionNumber,
      form: f.form,
      filedAt: f.filedAt,
      fromIndexOnly: true,
      values: { note: `EDGAR's index lists this ${f.form}; its document was not ingested, so its terms are not known here.` },
      citationUrl: citationUrl(cik, f.accessionNumber, f.primaryDocument),
      sourceSpan: `EDGAR index: form ${f.form} filed ${isoDay(f.filedAt) ?? 'on an unknown date'}`,
      confidence: 'medium' as const,
      method: 'filing_index' as const,
    }));
}

// ---------------------------------------------------------------------------------------------
// 8-K items 3.01, 5.03, 1.01, 3.02

const itemKinds: Record<string, { kind: DilutionKind; subject: string }> = {
  '3.01': { kind: 'compliance_notice', subject: 'Notice of delisting or failure to satisfy a continued listing rule or standard; transfer of listing' },
  '5.03': { kind: 'corporate_action', subject: 'Amendments to articles of incorporation or bylaws; change in fiscal year (the usual item of a reverse split)' },
  '1.01': { kind: 'corporate_action', subject: 'Entry into a material definitive agreement (reported with Item 3.02: a securities sale agreement)' },
  '3.02': { kind: 'corporate_action', subject: 'Unregistered sales of equity securities' },
};

/** A 1.01 agreement tells of dilution when it sells securities: the document says so, or the same 8-K reports a 3.02 sale. */
const securitiesAgreement = /securities purchase agreement|subscription agreement|placement agen|underwriting agreement|sales agreement|at[- ]the[- ]market|warrant|convertible|pre-funded/i;
const reverseSplitText = /reverse (?:stock )?split/i;

function eightKRows(cik: string, filings: (FilingInfo & { cik: string })[], documentEvents: { id: string; accessionNumber: string | null; item: string | null; eventDate: Date | null; filedAt: Date | null; data: unknown }[]): DilutionRow[] {
  const rows: DilutionRow[] = [];
  for (const filing of filings.filter((f) => eightK.test(f.form))) {
    const items = filing.items.filter((i) => (dilutionItems as readonly string[]).includes(i));
    const documented = documentEvents.filter((e) => e.accessionNumber === filing.accessionNumber);
    const fromDocument = filing.documentSourceKey !== null && documented.length > 0;
    for (const item of items) {
      const event = documented.find((e) => e.item === item);
      const excerpt = (event?.data as { excerpt?: string } | undefined)?.excerpt ?? null;
      if (item === '1.01' && !(excerpt ? securitiesAgreement.test(excerpt) : items.includes('3.02'))) continue;
      let { kind } = itemKinds[item]!;
      const values: Record<string, unknown> = { item, itemTitle: itemKinds[item]!.subject, items: filing.items };
      let confidence: Confidence = 'medium';
      let span: string | null = null;
      if (excerpt) {
        values.excerpt = excerpt;
        if (item === '3.01') {
          const notice = exchangeNoticeIn(excerpt);
          const cure = complianceRegainedIn(excerpt);
          if (cure?.status.value === 'confirmed') {
            // the exchange confirmed that the issuer regained compliance: this 8-K reports the cure
            // (linkCures marks the notices it closes); a date read from the cure sentence is not the notice's
            const cureSpans = new Set([cure.status.sourceSpan, cure.confirmedDate?.sourceSpan]);
            Object.assign(values, {
              status: 'regained',
              regainedDate: valueOf(cure.confirmedDate),
              exchange: valueOf(cure.exchange) ?? valueOf(notice?.exchange),
              rule: valueOf(cure.rule),
              deficiency: valueOf(cure.deficiency),
              noticeDate: notice?.noticeDate && !cureSpans.has(notice.noticeDate.sourceSpan) ? notice.noticeDate.value : null,
              deadline: null,
            });
            ({ confidence, span } = { confidence: cure.status.confidence, span: cure.status.sourceSpan });
          } else {
            values.status = 'open';
            if (notice) {
              Object.assign(values, { exchange: valueOf(notice.exchange), rule: valueOf(notice.rule), deficiency: valueOf(notice.deficiency), noticeDate: valueOf(notice.noticeDate), deadline: valueOf(notice.deadline) });
              const read = [notice.rule, notice.deficiency, notice.deadline].filter((f): f is NonNullable<typeof f> => !!f);
              if (read.length) ({ confidence, span } = { confidence: lowest(read.map((f) => f.confidence)), span: read[0]!.sourceSpan });
            }
            // the issuer says it meets the requirement, the exchange has not confirmed it (or the sentence denies it): still open
            if (cure) values.unconfirmedRegain = { deficiency: valueOf(cure.deficiency), rule: valueOf(cure.rule), sourceSpan: cure.status.sourceSpan, method: cure.status.method };
          }
        }
        if (item === '5.03') {
          const [split] = reverseSplitsIn(excerpt);
          if (split) {
            kind = 'reverse_split';
            Object.assign(values, { ratio: split.value.ratio, factor: split.value.factor, effectiveDate: split.value.effectiveDate });
            ({ confidence, span } = { confidence: split.confidence, span: split.sourceSpan });
          } else if (reverseSplitText.test(excerpt)) {
            values.note = 'The item speaks of a reverse split but states no ratio the parser reads.';
          }
        }
        if (item === '1.01' || item === '3.02') {
          const sale = securitiesSaleIn(excerpt);
          if (sale) {
            Object.assign(values, { agreement: valueOf(sale.agreement), agreementDate: valueOf(sale.agreementDate), purchaser: valueOf(sale.purchaser), shares: valueOf(sale.shares), pricePerShare: valueOf(sale.pricePerShare), grossProceeds: valueOf(sale.grossProceeds), placementAgent: valueOf(sale.placementAgent), warrants: sale.warrants.map((w) => ({ warrantKind: w.kind, series: w.series, shares: valueOf(w.shares), exercisePrice: valueOf(w.exercisePrice), term: valueOf(w.term) })) });
            const read = [sale.agreement, sale.shares, sale.pricePerShare, sale.grossProceeds].filter((f): f is NonNullable<typeof f> => !!f);
            if (read.length) ({ confidence, span } = { confidence: lowest(read.map((f) => f.confidence)), span: read[0]!.sourceSpan });
          }
        }
      } else {
        if (item === '3.01') values.status = 'unknown';
        values.note = fromDocument
          ? `The 8-K's document was ingested but no Item ${item} section was found in it.`
          : `EDGAR's index lists Item ${item} for this 8-K; its document was not ingested, so the terms are not known here.`;
      }
      const date = event?.eventDate ?? filing.reportDate ?? filing.filedAt;
      rows.push({
        id: id('8k', filing.accessionNumber, item, kind),
        cik,
        kind,
        isEvent: true,
        date,
        orderedAt: date ?? filing.filedAt ?? epoch,
        accessionNumber: filing.accessionNumber,
        form: filing.form,
        filedAt: filing.filedAt,
        fromIndexOnly: !excerpt,
        values,
        citationUrl: citationUrl(cik, filing.accessionNumber, filing.primaryDocument),
        sourceSpan: excerpt ? (span ?? `Item ${item}: ${firstSentence(excerpt)}`) : `EDGAR index: 8-K items ${filing.items.join(', ')}`,
        confidence,
        method: excerpt ? 'eight_k_item' : 'filing_index',
      });
    }
  }
  linkCures(rows.filter((r) => r.kind === 'compliance_notice'));
  return rows;
}

/** The rule's number as printed ("5550(a)(2)"), to compare "Nasdaq Listing Rule 5550(a)(2)" with "Listing Rule 5550(a)(2)". */
const ruleNumber = (rule: unknown): string | null => (typeof rule === 'string' ? (rule.match(/\d{3,4}(?:\([a-zA-Z0-9]+\))+/)?.[0].toLowerCase() ?? null) : null);

/**
 * Marks the open notices a later regained-compliance 8-K of the company closes: status 'cured',
 * curedBy {accessionNumber, date}. A cure dated on or after the notice matches it by deficiency
 * when both name one, else by rule number when both cite one; a cure naming neither closes the
 * newest earlier notice still open of the same exchange. Cures are taken oldest first, so a notice
 * is closed by the first cure that matches it. Rows without a date are never linked.
 */
function linkCures(notices: DilutionRow[]): void {
  const time = (r: DilutionRow) => r.date!.getTime();
  const byDate = (a: DilutionRow, b: DilutionRow) => time(a) - time(b) || (a.accessionNumber ?? '').localeCompare(b.accessionNumber ?? '');
  const cures = notices.filter((r) => r.values.status === 'regained' && r.date).sort(byDate);
  const open = notices.filter((r) => r.values.status === 'open' && r.date).sort(byDate);
  const close = (notice: DilutionRow, cure: DilutionRow, matchedOn: string) => {
    notice.values.status = 'cured';
    notice.values.curedBy = { accessionNumber: cure.accessionNumber, date: isoDay(cure.date) };
    notice.values.cureMatchedOn = matchedOn;
  };
  for (const cure of cures) {
    const earlier = open.filter((n) => n.values.status === 'open' && time(n) <= time(cure) && n.accessionNumber !== cure.accessionNumber);
    const [deficiency, rule] = [cure.values.deficiency ?? null, ruleNumber(cure.values.rule)];
    if (deficiency || rule) {
      for (const notice of earlier) {
        const noticeRule = ruleNumber(notice.values.rule);
        if (deficiency && notice.values.deficiency) {
          if (notice.values.deficiency === deficiency) close(notice, cure, 'deficiency');
        } else if (rule && noticeRule && noticeRule === rule) close(notice, cure, 'rule');
      }
    } else {
      const exchange = cure.values.exchange ?? null;
      const newest = earlier.filter((n) => !exchange || !n.values.exchange || n.values.exchange === exchange).pop();
      if (newest) close(newest, cure, 'exchange');
    }
  }
}

function firstSentence(text: string): string {
  const sentence = text.replace(/\s+/g, ' ').trim().match(/^.{20,400}?[.;](?=\s|$)/)?.[0] ?? text.replace(/\s+/g, ' ').slice(0, 400);
  return sentence;
}


