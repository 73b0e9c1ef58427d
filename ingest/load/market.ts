// Market data rows, replaced whole when a file is read again (load/fileRows.ts). A subject (a ticker, a factor dataset at a frequency, a FRED series at a frequency) is
// held from one file only: a second file of the same subject fails rather than mixing two
// vendors' numbers.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Step, Tx } from '../handlers.ts';
import type { FactorFile, MissingValue } from '../parsers/market/famaFrench.ts';
import type { FredFile } from '../parsers/market/fred.ts';
import type { BadLine, PriceAdjustment, PriceFile } from '../parsers/market/prices.ts';
import { day } from '../../core/rows.ts';
import { writeFileRows } from './fileRows.ts';

type Column = readonly [name: string, type: 'text' | 'date'];

/** A file's rows (arrays in `columns` order), replaced whole on a second read (load/fileRows.ts). */
function writeRows(step: Step, table: string, columns: readonly Column[], rows: (string | null)[][], key: string): Promise<number> {
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

export async function loadFactorReturns(step: Step, key: string, file: FactorFile): Promise<number> {
  for (const frequency of new Set(file.values.map((v) => v.frequency))) {
    const held = await step((tx) => tx.factorReturn.findFirst({ where: { dataset: file.dataset, frequency, sourceKey: { not: key } }, select: { sourceKey: true } }));
    refuseIfHeldElsewhere(held, `series ${file.dataset} ${frequency}`, key);
  }
  const columns = [['dataset', 'text'], ['frequency', 'text'], ['period', 'text'], ['date', 'date'], ['factor', 'text'], ['value', 'text'], ['sourceKey', 'text']] as const;
  return writeRows(step, 'FactorReturn', columns, file.values.map((v) => [file.dataset, v.frequency, v.period, v.date, v.factor, v.value, key]), key);
}

export async function loadMacroSeries(step: Step, key: string, file: FredFile): Promise<number> {
  const { seriesId, frequency, observations } = file;
  const [firstDate, lastDate] = coverage(observations.map((o) => o.date));
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
  /** every row's date (YYYY-MM-DD), for the coverage */
  dates: string[];
  missing: MissingValue[];
  badLines: BadLine[];
  /** prices only: whether the Close is adjusted, and the rule that says so */
  adjustment?: PriceAdjustment;
}

/** The file's MarketSource row: what it holds and what was left out, replacing the last one. */
export async function saveMarketSource(tx: Tx, s: MarketSourceRecord): Promise<void> {
  const [firstDate, lastDate] = coverage(s.dates);
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

function coverage(dates: string[]): [Date | null, Date | null] {
  if (!dates.length) return [null, null];
  let [first, last] = [dates[0]!, dates[0]!];
  for (const d of dates) {
    if (d < first) first = d;
    if (d > last) last = d;
  }
  return [day(first), day(last)];
}
