// Dollars as people type them, cents as the service counts them.
import { formatMoney } from '../../format.ts';

/** "25", "25.5", "$1,000.00" → cents; null when it is not an amount of money. */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** Cents as a field's value: 2500 → "25.00"; empty for none. */
export const dollarsField = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : (cents / 100).toFixed(2));

/** Millicents (1/1,000 of a cent) as money, to the cent, or to a tenth of a cent below a dollar. */
export function formatMillicents(millicents: number): string {
  const cents = millicents / 1000;
  if (Math.abs(cents) >= 100 || Number.isInteger(cents)) return formatMoney(Math.round(cents));
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 5 }).format(cents / 100);
}
