// The tag map: the normalized line items of the income statement, balance sheet and cash-flow
// statement, and for each the XBRL tags that carry it, in priority order, across us-gaap and
// ifrs-full. Issuers pick different tags for the same line and change them over time (Apple's
// revenue moved from SalesRevenueNet to RevenueFromContractWithCustomerExcludingAssessedTax
// with ASC 606), so a line is read from the first candidate an issuer reports for the period.
import type { FactRecord } from '../ingest/parsers/xbrl/companyFacts.ts';

export type StatementKind = 'income' | 'balanceSheet' | 'cashFlow';

export interface TagRef {
  taxonomy: 'us-gaap' | 'ifrs-full';
  tag: string;
}

export interface LineItem {
  key: string;
  label: string;
  statement: StatementKind;
  /** what the unit must be: an ISO currency, currency per share, or shares */
  measure: 'currency' | 'perShare' | 'shares';
  /**
   * Whether quarters may be derived by subtraction (FY − Q1 − Q2 − Q3, YTD − YTD). Per-share
   * amounts and average share counts are not additive: a Q4 EPS is never FY EPS minus the rest.
   */
  additive: boolean;
  candidates: TagRef[];
}

const gaap = (...tags: string[]): TagRef[] => tags.map((tag) => ({ taxonomy: 'us-gaap', tag }));
const ifrs = (...tags: string[]): TagRef[] => tags.map((tag) => ({ taxonomy: 'ifrs-full', tag }));

function line(statement: StatementKind, key: string, label: string, measure: LineItem['measure'], candidates: TagRef[]): LineItem {
  return { key, label, statement, measure, additive: measure === 'currency', candidates };
}

export const lineItems: readonly LineItem[] = [
  line('income', 'revenue', 'Revenue', 'currency', [
    ...gaap('RevenueFromContractWithCustomerExcludingAssessedTax', 'Revenues', 'SalesRevenueNet', 'RevenueFromContractWithCustomerIncludingAssessedTax', 'SalesRevenueGoodsNet', 'SalesRevenueServicesNet'),
    ...ifrs('Revenue', 'RevenueFromContractsWithCustomers'),
  ]),
  line('income', 'costOfRevenue', 'Cost of revenue', 'currency', [
    ...gaap('CostOfRevenue', 'CostOfGoodsAndServicesSold', 'CostOfGoodsSold', 'CostOfServices', 'CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization'),
    ...ifrs('CostOfSales'),
  ]),
  line('income', 'grossProfit', 'Gross profit', 'currency', [...gaap('GrossProfit'), ...ifrs('GrossProfit')]),
  line('income', 'researchAndDevelopment', 'Research and development', 'currency', [
    ...gaap('ResearchAndDevelopmentExpense', 'ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost'),
    ...ifrs('ResearchAndDevelopmentExpense'),
  ]),
  line('income', 'sellingGeneralAdministrative', 'Selling, general and administrative', 'currency', [
    ...gaap('SellingGeneralAndAdministrativeExpense'),
    ...ifrs('SellingGeneralAndAdministrativeExpense'),
  ]),
  // IFRS analyses expenses by nature or by function and defines no total; filers use
  // ifrs-full:OperatingExpense for whatever subtotal they show, so the line is not mapped there.
  line('income', 'operatingExpenses', 'Total operating expenses', 'currency', gaap('OperatingExpenses')),
  line('income', 'operatingIncome', 'Operating income', 'currency', [...gaap('OperatingIncomeLoss'), ...ifrs('ProfitLossFromOperatingActivities')]),
  line('income', 'pretaxIncome', 'Income before income taxes', 'currency', [
    ...gaap(
      'IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
      'IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
      'IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic',
    ),
    ...ifrs('ProfitLossBeforeTax'),
  ]),
  line('income', 'incomeTax', 'Income tax expense', 'currency', [...gaap('IncomeTaxExpenseBenefit'), ...ifrs('IncomeTaxExpenseContinuingOperations')]),
  // Net income is the parent's share under both GAAP and IFRS; ProfitLoss (including
  // non-controlling interests) only where the parent's share is not tagged.
  line('income', 'netIncome', 'Net income', 'currency', [
    ...gaap('NetIncomeLoss', 'NetIncomeLossAvailableToCommonStockholdersBasic', 'ProfitLoss'),
    ...ifrs('ProfitLossAttributableToOwnersOfParent', 'ProfitLoss'),
  ]),
  line('income', 'epsBasic', 'EPS, basic', 'perShare', [...gaap('EarningsPerShareBasic', 'EarningsPerShareBasicAndDiluted'), ...ifrs('BasicEarningsLossPerShare')]),
  line('income', 'epsDiluted', 'EPS, diluted', 'perShare', [...gaap('EarningsPerShareDiluted', 'EarningsPerShareBasicAndDiluted'), ...ifrs('DilutedEarningsLossPerShare')]),
  line('income', 'weightedSharesBasic', 'Weighted average shares, basic', 'shares', [...gaap('WeightedAverageNumberOfSharesOutstandingBasic'), ...ifrs('WeightedAverageShares')]),
  line('income', 'weightedSharesDiluted', 'Weighted average shares, diluted', 'shares', [
    ...gaap('WeightedAverageNumberOfDilutedSharesOutstanding'),
    ...ifrs('AdjustedWeightedAverageShares'),
  ]),

  line('balanceSheet', 'cash', 'Cash and cash equivalents', 'currency', [...gaap('CashAndCashEquivalentsAtCarryingValue', 'Cash'), ...ifrs('CashAndCashEquivalents')]),
  line('balanceSheet', 'currentAssets', 'Total current assets', 'currency', [...gaap('AssetsCurrent'), ...ifrs('CurrentAssets')]),
  line('balanceSheet', 'totalAssets', 'Total assets', 'currency', [...gaap('Assets'), ...ifrs('Assets')]),
  line('balanceSheet', 'currentLiabilities', 'Total current liabilities', 'currency', [...gaap('LiabilitiesCurrent'), ...ifrs('CurrentLiabilities')]),
  line('balanceSheet', 'totalLiabilities', 'Total liabilities', 'currency', [...gaap('Liabilities'), ...ifrs('Liabilities')]),
  // ifrs-full:LongtermBorrowings may include the current portion; only the non-current element fits.
  line('balanceSheet', 'longTermDebt', 'Long-term debt, non-current', 'currency', [...gaap('LongTermDebtNoncurrent'), ...ifrs('NoncurrentPortionOfNoncurrentBorrowings')]),
  line('balanceSheet', 'totalEquity', "Total shareholders' equity", 'currency', [
    ...gaap('StockholdersEquity', 'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'),
    ...ifrs('EquityAttributableToOwnersOfParent', 'Equity'),
  ]),
  line('balanceSheet', 'noncontrollingInterest', 'Non-controlling interests', 'currency', [...gaap('MinorityInterest'), ...ifrs('NoncontrollingInterests')]),
  line('balanceSheet', 'sharesOutstanding', 'Common shares outstanding', 'shares', [...gaap('CommonStockSharesOutstanding'), ...ifrs('NumberOfSharesOutstanding')]),

  line('cashFlow', 'operatingCashFlow', 'Net cash from operating activities', 'currency', [
    ...gaap('NetCashProvidedByUsedInOperatingActivities', 'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations'),
    // Cash generated from operations is a subtotal before interest and tax paid; some IFRS filers
    // tag only it as their operating total, so it is the last resort (and the fact is cited).
    ...ifrs('CashFlowsFromUsedInOperatingActivities', 'CashFlowsFromUsedInOperations'),
  ]),
  line('cashFlow', 'investingCashFlow', 'Net cash from investing activities', 'currency', [
    ...gaap('NetCashProvidedByUsedInInvestingActivities', 'NetCashProvidedByUsedInInvestingActivitiesContinuingOperations'),
    ...ifrs('CashFlowsFromUsedInInvestingActivities'),
  ]),
  line('cashFlow', 'financingCashFlow', 'Net cash from financing activities', 'currency', [
    ...gaap('NetCashProvidedByUsedInFinancingActivities', 'NetCashProvidedByUsedInFinancingActivitiesContinuingOperations'),
    ...ifrs('CashFlowsFromUsedInFinancingActivities'),
  ]),
  line('cashFlow', 'capitalExpenditure', 'Capital expenditure', 'currency', [
    ...gaap('PaymentsToAcquirePropertyPlantAndEquipment', 'PaymentsToAcquireProductiveAssets', 'PaymentsForCapitalImprovements', 'PaymentsToAcquireOtherPropertyPlantAndEquipment'),
    ...ifrs('PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities', 'PurchaseOfPropertyPlantAndEquipment'),
  ]),
  line('cashFlow', 'depreciationAmortization', 'Depreciation and amortization', 'currency', [
    // OtherDepreciationAndAmortization is the cash-flow D&A row of filers that show amortization
    // of acquired intangibles on a row of its own (Marvell); the cited tag says which it is.
    ...gaap(
      'DepreciationDepletionAndAmortization',
      'DepreciationAmortizationAndAccretionNet',
      'DepreciationAndAmortization',
      'DepreciationDepletionAndAmortizationPropertyPlantAndEquipment',
      'OtherDepreciationAndAmortization',
    ),
    ...ifrs('AdjustmentsForDepreciationAndAmortisationExpense', 'DepreciationAndAmortisationExpense'),
  ]),
  line('cashFlow', 'shareBasedCompensation', 'Share-based compensation', 'currency', [...gaap('ShareBasedCompensation', 'AllocatedShareBasedCompensationExpense'), ...ifrs('AdjustmentsForSharebasedPayments')]),
  line('cashFlow', 'dividendsPaid', 'Dividends paid', 'currency', [
    ...gaap('PaymentsOfDividends', 'PaymentsOfDividendsCommonStock'),
    ...ifrs('DividendsPaidClassifiedAsFinancingActivities', 'DividendsPaid'),
  ]),
  line('cashFlow', 'shareRepurchases', 'Repurchases of common stock', 'currency', [
    ...gaap('PaymentsForRepurchaseOfCommonStock'),
    ...ifrs('PaymentsToAcquireOrRedeemEntitysShares', 'PurchaseOfTreasuryShares'),
  ]),
];

export function lineItemsOf(statement: StatementKind): LineItem[] {
  return lineItems.filter((item) => item.statement === statement);
}

/** A tag the issuer reports, and when it last did (later use wins when resolving). */
export interface TagUsage {
  taxonomy: string;
  tag: string;
  /** the latest filed date of any fact with this tag; null when unknown */
  lastFiled?: string | null;
}

export interface TagResolution {
  requestedTag: string;
  /** the tag the series reads first (the requested one when reported); null when none is */
  resolvedTag: string | null;
  taxonomy: string | null;
  /**
   * exact: the requested tag, as reported. alias: a line item ("revenue"), or a tag the issuer never
   * reported, answered with the tags the issuer uses for that line. not_reported: none of them.
   * (not_covered, when the service holds no facts of the company at all, is decided by the caller.)
   */
  reason: 'exact' | 'alias' | 'not_reported';
  /** every tag the series reads, preferred first: one for exact, the line's reported tags for alias */
  tags: TagRef[];
  /** the normalized line the request was matched to, when it names or belongs to one */
  lineItem: string | null;
  explanation: string;
}

/** What an issuer reports, from its facts: each tag once, with its last filed date. */
export function tagUsage(facts: readonly FactRecord[]): TagUsage[] {
  const usage = new Map<string, TagUsage>();
  for (const fact of facts) {
    const key = `${fact.taxonomy}:${fact.tag}`;
    const seen = usage.get(key);
    if (!seen) usage.set(key, { taxonomy: fact.taxonomy, tag: fact.tag, lastFiled: fact.filedAt });
    else if ((fact.filedAt ?? '') > (seen.lastFiled ?? '')) seen.lastFiled = fact.filedAt;
  }
  return [...usage.values()];
}

function splitQName(name: string): { taxonomy: string | null; tag: string } {
  const colon = name.lastIndexOf(':');
  return colon < 0 ? { taxonomy: null, tag: name } : { taxonomy: name.slice(0, colon), tag: name.slice(colon + 1) };
}

/** A requested tag ("Revenues", "us-gaap:Revenues"): its taxonomy, when named, and its name. */
export function requestedTag(requested: string): { taxonomy: string | null; tag: string } {
  return splitQName(requested.trim());
}

/** A requested tag or line item, taken apart: its taxonomy and name, and the line it names or belongs to. */
function requestedLine(requested: string) {
  const { taxonomy: requestedTaxonomy, tag: requestedName } = requestedTag(requested);
  const askedForLine = lineItems.find((candidate) => candidate.key.toLowerCase() === requestedName.toLowerCase() && !requestedTaxonomy);
  const item = askedForLine ?? lineItems.find((candidate) => candidate.candidates.some((ref) => ref.tag === requestedName && (!requestedTaxonomy || ref.taxonomy === requestedTaxonomy)));
  return { requestedTaxonomy, requestedName, askedForLine, item };
}

/**
 * The tag names resolveTag consults for a request: the name asked for and its line's candidates.
 * What an issuer reports of these names is all a resolution needs to know of it.
 */
export function tagsConsulted(requested: string): string[] {
  const { requestedName, item } = requestedLine(requested);
  return [...new Set([requestedName, ...(item?.candidates.map((ref) => ref.tag) ?? [])])];
}

/**
 * The tags a series reads for a requested tag ("Revenues", "us-gaap:Revenues") or line item
 * ("revenue"). A tag the issuer reports is answered with that tag, whatever line it belongs to:
 * Apple reported Revenues until 2018 and those facts are reachable as Revenues. A line item, or a
 * tag the issuer never reported, is answered with every candidate of its line the issuer reports,
 * most recently used first; the series then takes each period from the first of them that
 * reports it (stitched by period, each point citing its own tag).
 */
export function resolveTag(requested: string, availableTags: Iterable<TagUsage | string>): TagResolution {
  const available = [...availableTags].map((entry) => (typeof entry === 'string' ? { ...splitQName(entry), lastFiled: null } : entry));
  const { requestedTaxonomy, requestedName, askedForLine, item } = requestedLine(requested);
  const usageOf = (ref: { taxonomy: string | null; tag: string }) => available.find((entry) => entry.tag === ref.tag && (!ref.taxonomy || entry.taxonomy === ref.taxonomy));
  const base = { requestedTag: requested, lineItem: item?.key ?? null };

  if (!askedForLine) {
    const used = usageOf({ taxonomy: requestedTaxonomy, tag: requestedName });
    if (used) {
      const ref = { taxonomy: used.taxonomy as TagRef['taxonomy'], tag: used.tag };
      return { ...base, resolvedTag: used.tag, taxonomy: used.taxonomy, reason: 'exact', tags: [ref], explanation: `${used.taxonomy}:${used.tag} is reported as requested.` };
    }
  }
  if (!item) {
    return { ...base, resolvedTag: null, taxonomy: null, reason: 'not_reported', tags: [], explanation: `The issuer reports no fact tagged ${requested}, and it is not one of the mapped statement lines.` };
  }
  const reported = item.candidates
    .map((ref, priority) => ({ ref, priority, lastFiled: usageOf(ref)?.lastFiled ?? null, used: !!usageOf(ref) }))
    .filter((c) => c.used)
    .sort((a, b) => (b.lastFiled ?? '').localeCompare(a.lastFiled ?? '') || a.priority - b.priority);
  if (!reported.length) {
    return {
      ...base,
      resolvedTag: null,
      taxonomy: null,
      reason: 'not_reported',
      tags: [],
      explanation: `The issuer reports none of the tags for ${item.label}: ${item.candidates.map((ref) => `${ref.taxonomy}:${ref.tag}`).join(', ')}.`,
    };
  }
  const [best] = reported;
  const described = reported.map((c) => `${c.ref.taxonomy}:${c.ref.tag}${c.lastFiled ? ` (last filed ${c.lastFiled})` : ''}`).join(', ');
  return {
    ...base,
    resolvedTag: best!.ref.tag,
    taxonomy: best!.ref.taxonomy,
    reason: 'alias',
    tags: reported.map((c) => c.ref),
    explanation: askedForLine
      ? `The issuer reports ${item.label} as ${described}; each period comes from the first of these that reports it, and each fact names its own tag.`
      : `The issuer has never reported ${requested}. It reports ${item.label} as ${described}; each period comes from the first of these that reports it, and each fact names its own tag.`,
  };
}
