// Small helpers shared by the loaders.
import { createHash } from 'node:crypto';

/** A YYYY-MM-DD date as the Date Prisma stores in a DATE column; null stays null. */
export function day(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new Error(`not a calendar date: ${JSON.stringify(value)}`);
  }
  return date;
}

export function digest(...parts: (string | number | null | undefined)[]): string {
  return createHash('sha256').update(parts.map((p) => String(p ?? '')).join('\u0001')).digest('hex').slice(0, 32);
}

export function padCik(cik: string | number): string {
  return String(cik).replace(/^0+(?=\d)/, '').padStart(10, '0');
}

export function* chunks<T>(rows: T[], size = 1000): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** The date lists sort by when a record may lack its filing date. */
export function orderDate(...candidates: (Date | null | undefined)[]): Date {
  return candidates.find((d): d is Date => d instanceof Date) ?? new Date('1900-01-01T00:00:00.000Z');
}
