// The inputs of the dilution score (score.ts), read from a company's stored dilution records.
// Deterministic: the score is as of the latest date the records hold, never the clock; an input the
// records do not give is null (the method then lowers its confidence), never 0.
import type { DilutionRecord } from '../../prisma/generated/client/client.ts';
import { isoDay } from '../citations.ts';
import type { DilutionScoreInputs, InputSource, MissingReasons, ScoreInput } from './score.ts';

const day = 86_400_000;
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);
const source = (r: DilutionRecord): InputSource => ({ accessionNumber: r.accessionNumber, citationUrl: r.citationUrl, sourceSpan: r.sourceSpan, method: r.method as InputSource['method'] });
const input = (value: number, r: DilutionRecord): ScoreInput => ({ value, asOf: isoDay(r.date)!, source: source(r) });

/**
 * @param records the company's records, any order
 * @param hasIndex whether EDGAR's index of the company's filings was ingested (its submissions): only
 *   then does "no 8-K item 3.01 / 5.03 and no offering in the window" count as zero rather than unknown
 */
export function scoreInputsOf(records: DilutionRecord[], hasIndex: boolean): { asOf: string | null; inputs: DilutionScoreInputs; why: MissingReasons } {
  const dated = records.filter((r) => r.date).sort((a, b) => b.date!.getTime() - a.date!.getTime() || a.id.localeCompare(b.id));
  const asOfDate = dated[0]?.date ?? null;
  const asOf = isoDay(asOfDate);
  const latest = (kind: string, when: (r: DilutionRecord) => boolean = () => true) => dated.find((r) => r.kind === kind && when(r)) ?? null;
  const inputs: DilutionScoreInputs = {};
  const why: MissingReasons = {};
  if (!asOfDate) return { asOf, inputs, why };

  const cash = latest('cash_position');
  if (cash) {
    const v = cash.values as { cash: string; operatingCashFlow12m: { value: string } | null; runwayMonths: number | null };
    inputs.cash = input(Number(v.cash), cash);
    if (v.operatingCashFlow12m) inputs.monthlyBurn = input(-Number(v.operatingCashFlow12m.value) / 12, cash);
    if (v.runwayMonths !== null) inputs.cashRunwayMonths = input(v.runwayMonths, cash);
  }

  // An observation is stated by an XBRL fact or by an offering document's sentence "as of" a date: the
  // newest is used, and on the same date the fact (an exact tag) before the sentence. The classes of one
  // cover are added up; two sources stating the same date are never added together.
  const newest = (kind: string, when: (r: DilutionRecord) => boolean = () => true) =>
    dated.filter((r) => r.kind === kind && when(r)).sort((a, b) => b.date!.getTime() - a.date!.getTime() || Number(b.method === 'xbrl_fact') - Number(a.method === 'xbrl_fact') || a.id.localeCompare(b.id))[0] ?? null;
  const basis = (r: DilutionRecord) => (r.values as { basis?: string }).basis ?? null;
  const sameStatement = (r: DilutionRecord, of: DilutionRecord) =>
    r.kind === of.kind && r.date!.getTime() === of.date!.getTime() && r.method === of.method && (r.method === 'xbrl_fact' || r.accessionNumber === of.accessionNumber) && basis(r) === basis(of);
  const sharesOf = (of: DilutionRecord) => dated.filter((r) => sameStatement(r, of)).reduce((n, r) => n + Number((r.values as { shares: string }).shares), 0);
  const shares = newest('shares_outstanding');
  if (shares) {
    inputs.sharesOutstanding = input(sharesOf(shares), shares);
    // about a year before (9 to 15 months), and only when no split lies between: a split-adjusted count is not guessed
    const earlier = newest('shares_outstanding', (r) => shares.date!.getTime() - r.date!.getTime() >= 274 * day && shares.date!.getTime() - r.date!.getTime() <= 456 * day);
    const splitBetween = earlier && dated.some((r) => (r.kind === 'reverse_split' || r.kind === 'stock_split') && r.date! > earlier.date! && r.date! <= shares.date!);
    if (earlier && !splitBetween) inputs.sharesOutstanding12mAgo = input(sharesOf(earlier), earlier);
  }

  const float = newest('public_float');
  if (float) inputs.publicFloat = input(Number((float.values as { publicFloat: string }).publicFloat), float);

  // shelf and ATM capacity: only what an offering document states (its remaining capacity, its program size)
  type Capacity = { remaining: number | null; asOf: string; established: boolean; reason: string | null };
  type Terms = { babyShelf?: { remainingCapacity?: { value: number } | null }; atmProgramSize?: { value: number } | null; shelfSize?: { value: number } | null };
  const termsOf = (r: DilutionRecord) => (r.values as { terms?: Terms }).terms;
  const capacityOf = (r: DilutionRecord) => (r.values as { babyShelf?: { capacity?: Capacity | null } | null }).babyShelf?.capacity ?? null;
  // (an ATM program sold off a baby shelf is limited by the same remaining capacity): the newest document
  // that gives one, if the float it rests on establishes it; else missing, with why
  const shelf = dated.find((r) => (r.kind === 'shelf' || r.kind === 'offering' || r.kind === 'atm_program') && (capacityOf(r)?.remaining != null || termsOf(r)?.babyShelf?.remainingCapacity));
  if (shelf) {
    const capacity = capacityOf(shelf);
    if (!capacity) inputs.shelfCapacityRemaining = input(termsOf(shelf)!.babyShelf!.remainingCapacity!.value, shelf);
    else if (capacity.established) inputs.shelfCapacityRemaining = input(capacity.remaining!, shelf);
    else why.shelfCapacityRemaining = `${shelf.form ?? 'the offering document'} ${shelf.accessionNumber ?? ''} (${isoDay(shelf.date)}): ${capacity.reason}`.replace('  ', ' ');
  }
  const atm = dated.find((r) => r.kind === 'atm_program' && num(termsOf(r)?.atmProgramSize?.value ?? (r.values as { programSize?: number }).programSize) !== null);
  if (atm) inputs.atmCapacityRemaining = input(num(termsOf(atm)?.atmProgramSize?.value ?? (atm.values as { programSize?: number }).programSize)!, atm);

  // warrants outstanding: the newest count of them, an XBRL fact's (its classes added up) or the one an
  // offering document states as of a date, plus the warrants documents establish as issued after that
  // date (a final prospectus's, or a recital of warrants already issued), not expired by the score's date
  type Issued = { shares?: number | null; term?: { years: number | null } | null; issuance?: boolean; established?: boolean };
  const issuedRows = dated.filter((r) => r.kind === 'warrant' && (r.values as Issued).issuance && num((r.values as Issued).shares) !== null && (r.values as Issued).established !== false);
  const live = (r: DilutionRecord, at: Date) => {
    const years = (r.values as Issued).term?.years;
    return !years || r.date!.getTime() + years * 365.25 * day >= at.getTime();
  };
  const outstandingOf = (r: DilutionRecord) => num((r.values as { outstanding?: string }).outstanding);
  const warrant = newest('warrant', (r) => outstandingOf(r) !== null);
  if (warrant) {
    const counted = dated.filter((r) => sameStatement(r, warrant) && outstandingOf(r) !== null).reduce((n, r) => n + outstandingOf(r)!, 0);
    const after = issuedRows.filter((r) => r.date! > warrant.date! && r.date! <= asOfDate && live(r, asOfDate));
    if (!after.length) inputs.warrantsOutstanding = input(counted, warrant);
    else {
      const at = after[0]!.date!;
      inputs.warrantsOutstanding = {
        value: counted + after.reduce((n, r) => n + Number((r.values as Issued).shares), 0),
        asOf: isoDay(at)!,
        source: {
          ...source(warrant),
          sourceSpan: `${outstandingOf(warrant) === counted ? '' : 'the classes of '}the count as of ${isoDay(warrant.date)}: ${warrant.sourceSpan} … and the warrants issued after that date: ${after.map((r) => `${r.sourceSpan} (${isoDay(r.date)}${r.accessionNumber ? `, ${r.accessionNumber}` : ''})`).join(' … ')}`,
        },
      };
    }
  } else {
    // no count of outstanding warrants anywhere: the warrants documents state as issued, not yet expired
    // by the latest issuance, are what is known to be outstanding (exercises the filings do not report aside)
    const at = issuedRows[0]?.date;
    const alive = at ? issuedRows.filter((r) => live(r, at)) : [];
    if (alive.length) {
      const total = alive.reduce((n, r) => n + Number((r.values as Issued).shares), 0);
      inputs.warrantsOutstanding = {
        value: total,
        asOf: isoDay(at!)!,
        source: { ...source(alive[0]!), sourceSpan: `warrants the offering documents state as issued (no count of outstanding warrants is held): ${alive.map((r) => r.sourceSpan).join(' … ')}` },
      };
    }
  }
  // convertibles as converted: an XBRL count of the shares convertible debt converts into, or the preferred
  // stock an offering document states on an as-converted basis; the newest
  type Convertible = { measures?: Record<string, { value: string }>; asConverted?: string };
  const convertedOf = (r: DilutionRecord) => num((r.values as Convertible).measures?.DebtInstrumentConvertibleNumberOfEquityInstruments?.value) ?? num((r.values as Convertible).asConverted);
  const convertible = latest('convertible', (r) => convertedOf(r) !== null);
  if (convertible) inputs.convertibleShares = input(convertedOf(convertible)!, convertible);

  if (hasIndex) {
    const within = (r: DilutionRecord, days: number) => asOfDate.getTime() - r.date!.getTime() <= days * day && r.date! <= asOfDate;
    const counted = (rows: DilutionRecord[], what: string): ScoreInput => ({
      value: rows.length,
      asOf: asOf!,
      source: rows[0] ? source(rows[0]) : { accessionNumber: null, citationUrl: null, sourceSpan: `no ${what} in the filings EDGAR's index lists for the company` },
    });
    // Only notices still open count: one cured by a later 8-K reporting the exchange's confirmation
    // of regained compliance does not, nor does that 8-K itself (status 'regained'). An item known
    // only from EDGAR's index (status 'unknown') may be either, so while one is in the window the
    // count is not known: the input is missing, and the score lowers its confidence instead.
    const statusOf = (r: DilutionRecord) => (r.values as { status?: string }).status;
    const notices = dated.filter((r) => r.kind === 'compliance_notice' && within(r, 365) && statusOf(r) === 'open');
    const unknown = dated.filter((r) => r.kind === 'compliance_notice' && within(r, 365) && statusOf(r) === 'unknown').length;
    const deadlines = notices.map((r) => (r.values as { deadline?: string | null }).deadline).filter((d): d is string => !!d).map((d) => Math.round((Date.parse(`${d}T00:00:00Z`) - asOfDate.getTime()) / day));
    const open = counted(notices, "open 8-K item 3.01 notice (status 'open': not cured by a later 8-K reporting the exchange's confirmation of regained compliance) in the 12 months");
    inputs.openComplianceNotices = unknown ? null : { ...open, daysToNearestDeadline: deadlines.length ? deadlines.sort((a, b) => Math.abs(a) - Math.abs(b))[0]! : null };
    if (unknown) why.openComplianceNotices = `${unknown} 8-K item 3.01 in the 12 months to ${asOf} ${unknown === 1 ? 'is' : 'are'} known only from EDGAR's index: a notice or a cure, unread, so the open notices cannot be counted`;
    inputs.reverseSplitsLast24m = counted(dated.filter((r) => r.kind === 'reverse_split' && within(r, 730)), 'reverse split in the 24 months');
  }

  // Offerings of the 12 months: a held final prospectus that prices a sale establishes one closed, and so
  // does a final document's recital of a sale done; a prospectus known only from EDGAR's index, a
  // preliminary one, or a sale only a preliminary document recounts is possible (its closing is not
  // established). A recital and a prospectus within a week of each other are one sale.
  // Without the index, the held documents are all that is known: what they establish is still counted.
  const inWindow = (r: DilutionRecord) => asOfDate.getTime() - r.date!.getTime() <= 365 * day && r.date! <= asOfDate;
  type Priced = { status?: string; isPreliminary?: boolean; pricePerShare?: number | null; grossProceeds?: number | null; recountedBy?: string };
  const recounted = (r: DilutionRecord) => (r.values as Priced).recountedBy === 'offering_document';
  const isClosed = (r: DilutionRecord) =>
    !r.fromIndexOnly && (recounted(r) ? (r.values as Priced).status === 'closed' : !(r.values as Priced).isPreliminary && ((r.values as Priced).pricePerShare != null || (r.values as Priced).grossProceeds != null));
  const sales: DilutionRecord[] = [];
  for (const r of dated.filter((x) => x.kind === 'offering' && (/^424B[1345]$/.test(x.form ?? '') || recounted(x)) && inWindow(x))) {
    const same = sales.findIndex((o) => recounted(o) !== recounted(r) && Math.abs(o.date!.getTime() - r.date!.getTime()) <= 7 * day);
    if (same < 0) sales.push(r);
    else if (isClosed(r) && !isClosed(sales[same]!)) sales[same] = r;
  }
  const closed = sales.filter(isClosed);
  const possible = sales.filter((r) => !closed.includes(r));
  const documents = records.some((r) => r.method === 'offering_document' && (r.kind === 'offering' || r.kind === 'atm_program' || r.kind === 'shelf'));
  const how = (r: DilutionRecord) => (r.fromIndexOnly ? 'index only' : recounted(r) ? `recounted by a preliminary ${r.form ?? 'document'}` : 'preliminary');
  if (hasIndex || documents) {
    const what = hasIndex ? "the filings EDGAR's index lists for the company" : "the company's offering documents held (EDGAR's index of its filings is not)";
    inputs.recentOfferingsLast12m = {
      value: closed.length,
      possible: possible.length,
      asOf: asOf!,
      source: closed[0]
        ? { ...source(closed[0]), sourceSpan: `final prospectus pricing the sale, or a final document recounting it: ${closed.map((r) => `${r.form} ${r.accessionNumber ?? ''} (${isoDay(r.date)})`).join('; ')}` }
        : {
            accessionNumber: possible[0]?.accessionNumber ?? null,
            citationUrl: possible[0]?.citationUrl ?? null,
            sourceSpan: `no final, priced offering prospectus (424B) or final document recounting a sale in the 12 months in ${what}${possible.length ? `; ${possible.length} possible: ${possible.map((r) => `${r.form} ${r.accessionNumber ?? ''} (${isoDay(r.date)}, ${how(r)}${recounted(r) ? `: ${r.sourceSpan}` : ''})`).join('; ')}` : ''}`,
          },
    };
  }
  return { asOf, inputs, why };
}
