// The dilution computations that are rules, not readings: cash runway and the baby-shelf limit.
// Pure functions, so that a test (and a reader of the OpenAPI document) can check them by hand.

/** Form S-3 General Instruction I.B.6: below this public float, primary S-3 sales are capped. */
export const babyShelfThreshold = 75_000_000;

export const runwayRule =
  'runwayMonths = cash and cash equivalents at the observation date / monthly operating burn, where monthly burn = -(net cash from operating activities over a 12-month fiscal period (350 to 380 days) ending on that date, else the latest one ending in the 12 months before it) / 12. Null with a reason when that cash flow is zero or positive (no burn) or when no 12-month period is reported.';

export interface Runway {
  monthlyBurn: number | null;
  runwayMonths: number | null;
  /** why runwayMonths is null; null when it is not */
  reason: string | null;
}

/** Months of cash at the last 12 months' operating outflow; rounded to 0.1 month. */
export function runwayOf(cash: number, operatingCashFlow12m: number | null): Runway {
  if (operatingCashFlow12m === null) return { monthlyBurn: null, runwayMonths: null, reason: 'no 12-month operating cash flow is reported for this date, so no burn can be computed' };
  if (operatingCashFlow12m >= 0) return { monthlyBurn: null, runwayMonths: null, reason: 'operating cash flow over the 12 months is zero or positive: there is no burn to divide by' };
  const monthlyBurn = -operatingCashFlow12m / 12;
  return { monthlyBurn: Math.round(monthlyBurn), runwayMonths: Math.round((cash / monthlyBurn) * 10) / 10, reason: null };
}

export interface BabyShelf {
  applies: boolean;
  threshold: number;
  publicFloat: number;
  floatDate: string;
  /** one third of the public float: the most primary S-3 sales may raise in any 12 months; null when the limit does not apply */
  capacity12m: number | null;
  label: string;
}

const usd = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

/** The baby-shelf limit of Form S-3 I.B.6, from a public float and the date it was measured. */
export function babyShelfOf(publicFloat: number, floatDate: string): BabyShelf {
  const applies = publicFloat < babyShelfThreshold;
  const capacity12m = applies ? Math.floor(publicFloat / 3) : null;
  const label = applies
    ? `Baby-shelf limit (Form S-3 General Instruction I.B.6): the public float of ${usd(publicFloat)} as of ${floatDate} is under ${usd(babyShelfThreshold)}, so primary sales on Form S-3 may raise at most one third of it, ${usd(capacity12m!)}, in any 12 months (this is the float the filing states, as of its date; the rule measures it within 60 days before a sale)`
    : `No baby-shelf limit: the public float of ${usd(publicFloat)} as of ${floatDate} is ${usd(babyShelfThreshold)} or more`;
  return { applies, threshold: babyShelfThreshold, publicFloat, floatDate, capacity12m, label };
}
