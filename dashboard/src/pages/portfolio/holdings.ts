// Pasted holdings, read line by line before anything is sent: "TICKER weight" (a fraction or a
// percentage), "TICKER,shares", or CSV with a header naming `ticker` and `weight` or `shares`.
// Every line that cannot be read says why, by its line number; the service wants every holding
// the same way (all weights or all share counts), each ticker once.

export interface Holding {
  ticker: string;
  weight?: number;
  shares?: number;
}

export interface HoldingLine {
  /** 1-based line of the pasted text */
  line: number;
  text: string;
  holding: Holding | null;
  error: string | null;
}

export interface ReadHoldings {
  lines: HoldingLine[];
  /** the holdings, when every line was read; the service's `holdings[i]` is `lines` with a holding, in order */
  holdings: Holding[] | null;
  /** what is wrong with the whole list, not one line */
  problem: string | null;
}

/** The service's bound on a portfolio (POST /v1/portfolio/analyze `holdings`). */
export const maxHoldings = 500;
const tickerPattern = /^[A-Z][A-Z0-9.-]{0,11}$/;

function readNumber(text: string | undefined, what: 'weight' | 'shares'): { value?: number; error?: string } {
  const raw = (text ?? '').trim();
  if (!raw) return { error: `no ${what === 'weight' ? 'weight' : 'share count'} after the ticker` };
  const percent = what === 'weight' && raw.endsWith('%');
  const value = Number((percent ? raw.slice(0, -1) : raw).replace(/_/g, ''));
  if (!Number.isFinite(value)) return { error: `“${raw}” is not a number` };
  if (what === 'weight' && value < 0) return { error: 'a weight cannot be negative' };
  if (what === 'shares' && value <= 0) return { error: 'a share count must be more than 0' };
  return { value: percent ? value / 100 : value };
}

function holdingOf(tickerText: string | undefined, amount: string | undefined, basis: 'weight' | 'shares'): { holding?: Holding; error?: string } {
  const ticker = (tickerText ?? '').trim().toUpperCase();
  if (!tickerPattern.test(ticker)) return { error: ticker ? `“${ticker}” is not a ticker` : 'no ticker' };
  const number = readNumber(amount, basis);
  if (number.error !== undefined) return { error: number.error };
  return { holding: basis === 'weight' ? { ticker, weight: number.value! } : { ticker, shares: number.value! } };
}

/** A CSV header: the columns it names, when the first line is one. */
function csvHeader(text: string): { ticker: number; weight: number; shares: number } | null {
  const cells = text.split(',').map((c) => c.trim().toLowerCase());
  const ticker = cells.findIndex((c) => c === 'ticker' || c === 'symbol');
  if (ticker < 0) return null;
  return { ticker, weight: cells.indexOf('weight'), shares: cells.indexOf('shares') };
}

export function readHoldings(text: string): ReadHoldings {
  const raw = text.split(/\r?\n/).map((t, i) => ({ line: i + 1, text: t.trim() })).filter((l) => l.text && !l.text.startsWith('#'));
  if (!raw.length) return { lines: [], holdings: null, problem: 'Paste at least one holding.' };
  const header = csvHeader(raw[0]!.text);
  const body = header ? raw.slice(1) : raw;
  if (header && header.weight < 0 && header.shares < 0) {
    return { lines: [{ ...raw[0]!, holding: null, error: 'the header names no weight or shares column' }], holdings: null, problem: null };
  }
  const lines: HoldingLine[] = body.map(({ line, text: t }) => {
    let read: { holding?: Holding; error?: string };
    if (header) {
      const cells = t.split(',');
      read = header.weight >= 0 ? holdingOf(cells[header.ticker], cells[header.weight], 'weight') : holdingOf(cells[header.ticker], cells[header.shares], 'shares');
    } else if (t.includes(',')) {
      const [ticker, shares, ...extra] = t.split(',');
      read = extra.length ? { error: 'expected TICKER,shares' } : holdingOf(ticker, shares, 'shares');
    } else {
      const [ticker, weight, ...extra] = t.split(/\s+/);
      read = extra.length ? { error: 'expected TICKER weight' } : holdingOf(ticker, weight, 'weight');
    }
    return { line, text: t, holding: read.holding ?? null, error: read.error ?? null };
  });

  // every holding the same way, each ticker once: the later line is the one marked
  const first = lines.find((l) => l.holding)?.holding;
  const seen = new Map<string, number>();
  for (const l of lines) {
    if (!l.holding) continue;
    const earlier = seen.get(l.holding.ticker);
    if (earlier !== undefined) l.error = `${l.holding.ticker} is already on line ${earlier}`;
    else if (first && (l.holding.weight === undefined) !== (first.weight === undefined)) l.error = `give every holding ${first.weight === undefined ? 'as a share count' : 'as a weight'}, as the first one`;
    else seen.set(l.holding.ticker, l.line);
    if (l.error) l.holding = null;
  }

  if (!lines.length) return { lines, holdings: null, problem: 'The CSV has a header but no holdings.' };
  if (lines.length > maxHoldings) return { lines, holdings: null, problem: `At most ${maxHoldings} holdings; this has ${lines.length}.` };
  if (first?.weight !== undefined && lines.every((l) => !l.holding || l.holding.weight === 0)) return { lines, holdings: null, problem: 'The weights add up to 0.' };
  return { lines, holdings: lines.every((l) => l.holding) ? lines.map((l) => l.holding!) : null, problem: null };
}

/** The pasted line of the service's `holdings[i]…` in a validation error, if it names one. */
export function lineOfIssue(path: string, read: ReadHoldings): number | null {
  const match = /^holdings\[(\d+)\]/.exec(path);
  if (!match) return null;
  return read.lines[Number(match[1])]?.line ?? null;
}
