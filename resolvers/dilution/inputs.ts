// The inputs of the dilution score (score.ts), read from a company's stored dilution records.
// Deterministic: the score is as of the latest date the records hold, never the clock; an input the
// records do not give is null (the method then lowers its confidence), never 0.
import type { DilutionRecord } from '../../prisma/generated/client/client.ts';
import { isoDay } from '../../derived/citations.ts';
import type { DilutionScoreInputs, MissingReasons, ScoreInput } from './score.ts';

const day = 86_400_000;
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);
const source = (r: DilutionRecord) => ({ accessionNumber: r.accessionNumber, citationUrl: r.citationUrl, sourceSpan: r.sourceSpan });
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

  // shares outstanding: every class reported on the latest cover date, added up
  const sharesOn = (at: Date) => dated.filter((r) => r.kind === 'shares_outstanding' && r.date!.getTime() === at.getTime());
  const shares = latest('shares_outstanding');
  if (shares) {
    const rows = sharesOn(shares.date!);
    inputs.sharesOutstanding = { ...input(rows.reduce((n, r) => n + Number((r.values as { shares: string }).shares), 0), shares) };
    // about a year before (9 to 15 months), and only when no split lies between: a split-adjusted count is not guessed
    const earlier = dated.find((r) => r.kind === 'shares_outstanding' && shares.date!.getTime() - r.date!.getTime() >= 274 * day && shares.date!.getTime() - r.date!.getTime() <= 456 * day);
    const splitBetween = earlier && dated.some((r) => (r.kind === 'reverse_split' || r.kind === 'stock_split') && r.date! > earlier.date! && r.date! <= shares.date!);
    if (earlier && !splitBetween) inputs.sharesOutstanding12mAgo = input(sharesOn(earlier.date!).reduce((n, r) => n + Number((r.values as { shares: string }).shares), 0), earlier);
  }

  const float = latest('public_float');
  if (float) inputs.publicFloat = input(Number((float.values as { publicFloat: string }).publicFloat), float);

  // shelf and ATM capacity: only what an offering document states (its remaining capacity, its program size)
  type Terms = { babyShelf?: { remainingCapacity?: { value: number } | null }; atmProgramSize?: { value: number } | null; shelfSize?: { value: number } | null };
  const termsOf = (r: DilutionRecord) => (r.values as { terms?: Terms }).terms;
  // (an ATM program sold off a baby shelf is limited by the same remaining capacity)
  const shelf = dated.find((r) => (r.kind === 'shelf' || r.kind === 'offering' || r.kind === 'atm_program') && termsOf(r)?.babyShelf?.remainingCapacity);
  if (shelf) inputs.shelfCapacityRemaining = input(termsOf(shelf)!.babyShelf!.remainingCapacity!.value, shelf);
  const atm = dated.find((r) => r.kind === 'atm_program' && num(termsOf(r)?.atmProgramSize?.value ?? (r.values as { programSize?: number }).programSize) !== null);
  if (atm) inputs.atmCapacityRemaining = input(num(termsOf(atm)?.atmProgramSize?.value ?? (atm.values as { programSize?: number }).programSize)!, atm);

  // warrants outstanding: the XBRL facts of the latest date that reports them
  const warrant = latest('warrant', (r) => r.method === 'xbrl_fact' && num((r.values as { outstanding?: string }).outstanding) !== null);
  if (warrant) {
    const rows = dated.filter((r) => r.kind === 'warrant' && r.method === 'xbrl_fact' && r.date!.getTime() === warrant.date!.getTime());
    inputs.warrantsOutstanding = input(rows.reduce((n, r) => n + (num((r.values as { outstanding?: string }).outstanding) ?? 0), 0), warrant);
  }
  const convertible = latest('convertible', (r) => num((r.values as { measures?: Record<string, { value: string }> }).measures?.DebtInstrumentConvertibleNumberOfEquityInstruments?.value) !== null);
  if (convertible) inputs.convertibleShares = input(num((convertible.values as { measures: Record<string, { value: string }> }).measures.DebtInstrumentConvertibleNumberOfEquityInstruments!.value)!, convertible);

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
    inputs.recentOfferingsLast12m = counted(dated.filter((r) => r.kind === 'offering' && /^424B[345]$/.test(r.form ?? '') && within(r, 365)), 'offering prospectus (424B3/4/5) in the 12 months');
  }
  return { asOf, inputs, why };
}
