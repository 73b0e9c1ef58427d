// Market data rows, replaced whole when a file is read again (load/fileRows.ts). A subject (a ticker, a factor dataset at a frequency, a FRED series at a frequency) is
// held from one file only: a second file of the same subject fails rather than mixing two
// vendors' numbers.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Step, Tx } from '../handlers.ts';
import type { FactorFile, FactorFrequency, MissingValue } from '../parsers/market/famaFrench.ts';
import type { FredFile } from '../parsers/market/fred.ts';
import type { BadLine, PriceAdjustment, PriceFile } from '../parsers/market/prices.ts';
import { packRows, unpackedChunks, type Field, type PackedRows } from '../../core/packedRows.ts';
import { day } from '../../core/rows.ts';
import { writeFileRows, type FileRows } from './fileRows.ts';

type Column = readonly [name: string, type: 'text' | 'date'];

/** A file's rows (arrays in `columns` order), replaced whole on a second read (load/fileRows.ts). */
function writeRows(step: Step, table: string, columns: readonly Column[], rows: FileRows<Field[]>, key: string): Promise<number> {
  return writeFileRows(step, table, columns.map(([name, type], i) => [name, type, (row: (string | null)[]) => row[i]] as const), rows, { column: 'sourceKey', value: key });
}

function refuseIfHeldElsewhere(held: { sourceKey: string } | null, what: string, key: string): void {
  if (held && held.sourceKey !== key) throw new Error(`${what} is already held from ${held.sourceKey}, and is held from one file only`);
}

export async function loadPriceBars(step: Step, key: string, file: PriceFile): Promise<number> {
  refuseIfHeldElsewhere(await step((tx) => tx.priceBar.findFirst({ where: { ticker: file.ticker, sourceKey: { not: key } }, select: { sourceKey: true } })), `ticker ${file.ticker}`, key);
  const columns = [['ticker', 'text'], ['date', 'date'], ['open', 'text'], ['high', 'text'], ['low', 'text'], ['close', 'text'], ['adjClose', 'text'], ['volume', 'text'], ['sourceKey', 'text']] as const;
  return writeRows(step, 'PriceBar', columns, file.bars.map((b) => [file.ticker, b.date, b.open, b.high, b.low, b.close, b.adjClose ?? null, b.volume, key]), key);
}

/**
 * A factor file as it is loaded: its values packed (core/packedRows.ts: a daily file holds over
 * 100,000, and they cross from the parse thread), with what the load needs of them all read where
 * the file was parsed.
 */
export type FactorLoad = Omit<FactorFile, 'values'> & { values: PackedRows; frequencies: FactorFrequency[]; span: DateSpan | null };

/** The values, each as (frequency, period, date, factor, value). */
export function factorLoad({ values, ...file }: FactorFile): FactorLoad {
  return {
    ...file,
    values: packRows(values.map((v) => [v.frequency, v.period, v.date, v.factor, v.value])),
    frequencies: [...new Set(values.map((v) => v.frequency))],
    span: dateSpan(values.map((v) => v.date)),
  };
}

export async function loadFactorReturns(step: Step, key: string, file: FactorLoad): Promise<number> {
  for (const frequency of file.frequencies) {
    const held = await step((tx) => tx.factorReturn.findFirst({ where: { dataset: file.dataset, frequency, sourceKey: { not: key } }, select: { sourceKey: true } }));
    refuseIfHeldElsewhere(held, `series ${file.dataset} ${frequency}`, key);
  }
  const columns = [['dataset', 'text'], ['frequency', 'text'], ['period', 'text'], ['date', 'date'], ['factor', 'text'], ['value', 'text'], ['sourceKey', 'text']] as const;
  const row = (v: Field[]) => [file.dataset, ...v, key];
  const rows = function* (size: number) {
    for (const chunk of unpackedChunks(file.values, size)) yield chunk.map(row);
  };
  return writeRows(step, 'FactorReturn', columns, rows, key);
}

export async function loadMacroSeries(step: Step, key: string, file: FredFile): Promise<number> {
  const { seriesId, frequency, observations } = file;
  const span = dateSpan(observations.map((o) => o.date));
  const [firstDate, lastDate] = spanDays(span);
  const series = { seriesId, frequency, sourceKey: key, firstDate, lastDate, observations: observations.length, missing: file.missing.length };
  await step(async (tx) => {
    const held = await tx.macroSeries.findUnique({ where: { seriesId_frequency: { seriesId, frequency } }, select: { sourceKey: true } });
    refuseIfHeldElsewhere(held, `series ${seriesId} ${frequency}`, key);
    // the file's series row is replaced (the file may now state another series), before its observations
    await tx.macroSeries.deleteMany({ where: { sourceKey: key } });
    await tx.macroSeries.create({ data: series });
  });
  const columns = [['seriesId', 'text'], ['frequency', 'text'], ['date', 'date'], ['value', 'text'], ['sourceKey', 'text']] as const;
  return 1 + (await writeRows(step, 'MacroObservation', columns, observations.map((o) => [seriesId, frequency, o.date, o.value, key]), key));
}

export interface MarketSourceRecord {
  sourceKey: string;
  kind: 'market_prices' | 'factor_returns' | 'macro_series';
  fileName: string;
  subject: string;
  vintage: string | null;
  vintageNote: string;
  rows: number;
  /** the first and last of its rows' dates */
  span: DateSpan | null;
  missing: MissingValue[];
  badLines: BadLine[];
  /** prices only: whether the Close is adjusted, and the rule that says so */
  adjustment?: PriceAdjustment;
}

/** The file's MarketSource row: what it holds and what was left out, replacing the last one. */
export async function saveMarketSource(tx: Tx, s: MarketSourceRecord): Promise<void> {
  const [firstDate, lastDate] = spanDays(s.span);
  const data = {
    kind: s.kind,
    fileName: s.fileName,
    subject: s.subject,
    vintage: s.vintage,
    vintageNote: s.vintageNote,
    rows: s.rows,
    firstDate,
    lastDate,
    missingValues: s.missing.length,
    missing: s.missing.slice(0, 1000) as unknown as Prisma.InputJsonValue,
    badLines: s.badLines.map((b) => ({ ...b, text: b.text.slice(0, 200) })) as unknown as Prisma.InputJsonValue,
    adjusted: s.adjustment?.adjusted ?? null,
    adjustedNote: s.adjustment?.note ?? null,
    ingestedAt: new Date(),
  };
  await tx.marketSource.upsert({ where: { sourceKey: s.sourceKey }, create: { sourceKey: s.sourceKey, ...data }, update: data });
}

export interface DateSpan {
  /** YYYY-MM-DD */
  first: string;
  last: string;
}

/** A span's first and last day as dates (nulls for none). */
const spanDays = (span: DateSpan | null): [Date | null, Date | null] => [day(span?.first), day(span?.last)];

/** The first and last of these dates (YYYY-MM-DD); null for none. */
export function dateSpan(dates: string[]): DateSpan | null {
  if (!dates.length) return null;
  let [first, last] = [dates[0]!, dates[0]!];
  for (const d of dates) {
    if (d < first) first = d;
    if (d > last) last = d;
  }
  return { first, last };
}
