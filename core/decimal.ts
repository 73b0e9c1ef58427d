// Exact decimal arithmetic on filed text: a value is a BigInt of digits and a count of decimal
// places, so sums and differences of "391035000000" and "6.11" carry no float error.

interface Decimal {
  digits: bigint;
  places: number;
}

export function parseDecimal(text: string): Decimal {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] === '' && !match[3])) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const [, sign, intPart, fracPart = ''] = match;
  const digits = BigInt((intPart || '0') + fracPart);
  return { digits: sign === '-' ? -digits : digits, places: fracPart.length };
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const places = Math.max(a.places, b.places);
  return [a.digits * 10n ** BigInt(places - a.places), b.digits * 10n ** BigInt(places - b.places), places];
}

export function formatDecimal({ digits, places }: Decimal): string {
  const negative = digits < 0n;
  const text = (negative ? -digits : digits).toString().padStart(places + 1, '0');
  const body = places ? `${text.slice(0, -places)}.${text.slice(-places)}` : text;
  return negative ? `-${body}` : body;
}

export function addDecimals(...values: string[]): string {
  let sum: Decimal = { digits: 0n, places: 0 };
  for (const value of values) {
    const [a, b, places] = aligned(sum, parseDecimal(value));
    sum = { digits: a + b, places };
  }
  return formatDecimal(sum);
}

export function subtractDecimals(minuend: string, ...subtrahends: string[]): string {
  return addDecimals(minuend, ...subtrahends.map(negateDecimal));
}

export function negateDecimal(value: string): string {
  const d = parseDecimal(value);
  return formatDecimal({ digits: -d.digits, places: d.places });
}

export function compareDecimals(x: string, y: string): number {
  const [a, b] = aligned(parseDecimal(x), parseDecimal(y));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** numerator / denominator rounded half away from zero to `places` decimals; null when dividing by zero. */
export function divideDecimals(numerator: string, denominator: string, places: number): string | null {
  const [n, d] = aligned(parseDecimal(numerator), parseDecimal(denominator));
  if (d === 0n) return null;
  const scaled = n * 10n ** BigInt(places);
  const negative = scaled < 0n !== d < 0n;
  const absN = scaled < 0n ? -scaled : scaled;
  const absD = d < 0n ? -d : d;
  let quotient = absN / absD;
  if ((absN % absD) * 2n >= absD) quotient += 1n;
  return formatDecimal({ digits: negative ? -quotient : quotient, places });
}

/**
 * `value` rounded half away from zero to XBRL `decimals` (-5: to 100,000; 2: to cents). INF, null
 * or a precision finer than the value's own leave it as it is.
 */
export function roundToDecimals(value: string, decimals: number): string {
  const d = parseDecimal(value);
  if (!Number.isFinite(decimals) || decimals >= d.places) return value;
  const drop = BigInt(d.places - decimals);
  const unit = 10n ** drop;
  const negative = d.digits < 0n;
  const abs = negative ? -d.digits : d.digits;
  let kept = abs / unit;
  if ((abs % unit) * 2n >= unit) kept += 1n;
  const rounded = decimals >= 0 ? { digits: kept, places: decimals } : { digits: kept * 10n ** BigInt(-decimals), places: 0 };
  return formatDecimal({ digits: negative ? -rounded.digits : rounded.digits, places: rounded.places });
}
