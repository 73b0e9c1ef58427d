// POST /v1/portfolio/hedge: bounded hedge ratios in benchmark instruments (SPY, QQQ, IWM, TLT)
// that minimise the portfolio's residual factor variance, over the window of analyze's rule
// (every holding and every instrument has a return on each date, every factor of the model a value).
//
//   F     sample covariance (divisor n − 1) of the model's daily factor returns over the window
//   b     the portfolio's betas (OLS with intercept of its daily excess return on the factors), k
//   B     the instruments' betas, one column per instrument (the same OLS), k × m
//   h     hedge ratios: a position in instrument j worth h_j × the portfolio's value (h_j < 0 sells)
//
//   minimise  q(h) = (b + B h)ᵀ F (b + B h) = bᵀFb + 2 cᵀh + hᵀQh,   Q = BᵀFB,  c = BᵀFb
//   subject to  lo_j ≤ h_j ≤ hi_j
//
// q is the daily variance of the hedged book's factor part (its specific variance is not in it).
// Solved exactly by enumerating the active sets of the box (each ratio free, at its lower bound or
// at its upper bound: 3^m ≤ 81 cases): for each, the free ratios solve Q_FF h_F = −(c_F + Q_FB h_B);
// a candidate inside the box is feasible, and the best feasible one is the minimum. Why that is
// exact: q is convex, so its minimisers over the box form a bounded polyhedron; at an extreme point
// of it the gradient vanishes on the free ratios and Q_FF is nonsingular (a null direction d of
// Q_FF has Qd = 0 as Q is positive semidefinite, so q is constant along it and the point would not
// be extreme), so that point is the unique solution of its own case. Cases with a (numerically)
// singular Q_FF are skipped. When the minimum is not unique (e.g. four instruments and three
// factors), candidates within 1e-12 × the unhedged variance of the best are the same minimum and
// the one with the smallest gross Σ|h_j| is kept; the enumeration order is fixed and further ties
// keep the first, so the answer is deterministic.
import type { Context } from '../context.ts';
import { excessOf, exposureSummary, fitFactors, portfolioWeights, type Holding } from './analyze.ts';
import { cholesky, choleskySolve, NotPositiveDefiniteError } from './linalg.ts';
import { sampleCovariance } from './risk.ts';
import { forComputation, invalid, loadSample, marketFiles, windowBounds, type ModelName, type Sample } from './window.ts';

export const hedgeInstruments = ['SPY', 'QQQ', 'IWM', 'TLT'] as const;
export type HedgeInstrument = (typeof hedgeInstruments)[number];
export const defaultBound = { min: -1, max: 0 } as const;
/** the widest bound a ratio may be given: ±10 × the portfolio's value */
export const boundLimit = 10;

export interface HedgeBound {
  instrument: string;
  min: number;
  max: number;
}

export interface HedgeInput {
  holdings: Holding[];
  asOf?: string;
  lookbackDays: number;
  model?: ModelName;
  /** a subset of hedgeInstruments; default every one whose prices cover the holdings' window */
  instruments?: string[];
  bounds?: HedgeBound[];
}

const tradingDays = 252;
/** Q_FF is treated as singular when a pivot keeps less than this fraction of its diagonal (1 − R² of that column on the earlier ones) */
const pivotTolerance = 1e-10;

/** The instruments and their bounds as asked, checked (GraphQL callers reach this without the route's validation). */
function checkHedgeRequest(instruments: string[] | undefined, bounds: HedgeBound[] | undefined, held: Set<string>): { instruments: HedgeInstrument[]; bounds: { min: number; max: number }[] } {
  let chosen: HedgeInstrument[];
  if (instruments) {
    if (!instruments.length) throw invalid('instruments', 'give at least one instrument, or leave it out for every one held', { acceptedValues: [...hedgeInstruments] });
    chosen = instruments.map((raw, i) => {
      const ticker = raw.toUpperCase() as HedgeInstrument;
      if (!hedgeInstruments.includes(ticker)) throw invalid(`instruments[${i}]`, `${raw} is not a hedge instrument`, { acceptedValues: [...hedgeInstruments] });
      if (instruments.slice(0, i).some((other) => other.toUpperCase() === ticker)) throw invalid(`instruments[${i}]`, `${ticker} is named twice`);
      if (!held.has(ticker)) throw invalid(`instruments[${i}]`, `no prices of ${ticker} are held`, { acceptedValues: hedgeInstruments.filter((t) => held.has(t)) });
      return ticker;
    });
  } else {
    chosen = hedgeInstruments.filter((t) => held.has(t));
    if (!chosen.length) throw invalid('instruments', `no prices of any hedge instrument (${hedgeInstruments.join(', ')}) are held`);
  }
  const byInstrument = new Map<string, { min: number; max: number }>();
  for (const b of bounds ?? []) {
    const ticker = b.instrument.toUpperCase();
    const path = `bounds.${b.instrument}`;
    if (!chosen.includes(ticker as HedgeInstrument)) throw invalid(path, `${b.instrument} is not among the instruments (${chosen.join(', ')})`);
    if (byInstrument.has(ticker)) throw invalid(path, `${ticker} is bounded twice`);
    if (!Number.isFinite(b.min) || !Number.isFinite(b.max)) throw invalid(path, 'min and max must be finite numbers');
    if (Math.abs(b.min) > boundLimit || Math.abs(b.max) > boundLimit) throw invalid(path, `a ratio is bounded within ±${boundLimit}`);
    if (b.min > b.max) throw invalid(path, `min ${b.min} is greater than max ${b.max}`);
    byInstrument.set(ticker, { min: b.min, max: b.max });
  }
  return { instruments: chosen, bounds: chosen.map((t) => byInstrument.get(t) ?? { ...defaultBound }) };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

export async function portfolioHedge(ctx: Context, input: HedgeInput) {
  const holdings = input.holdings.map((h) => h.ticker.toUpperCase());
  const prices = (await marketFiles(ctx)).filter((f) => f.kind === 'market_prices');
  let held = prices;
  if (!input.instruments) {
    // By default, the instruments whose files cover the holdings' own window (QQQ and IWM start
    // in 2019): an earlier window is hedged with fewer instruments rather than refused.
    const { from, to } = await windowBounds(ctx, { tickers: holdings, asOf: input.asOf, lookbackDays: input.lookbackDays, model: input.model });
    held = prices.filter((f) => f.firstDate && f.lastDate && iso(f.firstDate) < from && iso(f.lastDate) >= to);
  }
  const { instruments, bounds } = checkHedgeRequest(input.instruments, input.bounds, new Set(held.map((f) => f.subject.toUpperCase())));
  // holdings first, so that loadSample names an unknown holding by its place among them
  const sample = await loadSample(ctx, { tickers: [...new Set([...holdings, ...instruments])], asOf: input.asOf, lookbackDays: input.lookbackDays, model: input.model });
  return { sample, result: await ctx.analytics.run<typeof hedgeOfSample>('hedge', forComputation(sample), input.holdings, instruments, bounds) };
}

/** The problem q(h) = q0 + 2cᵀh + hᵀQh over the box lo ≤ h ≤ hi, m ≤ 4 ratios. */
export interface BoxQp {
  q0: number;
  /** m × m, row-major, symmetric positive semidefinite */
  Q: Float64Array;
  c: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
}

const objective = ({ q0, Q, c }: BoxQp, h: Float64Array) => {
  const m = c.length;
  let v = q0;
  for (let i = 0; i < m; i++) {
    v += 2 * c[i]! * h[i]!;
    for (let j = 0; j < m; j++) v += h[i]! * Q[i * m + j]! * h[j]!;
  }
  return v;
};

/** The exact minimiser of a box-constrained convex quadratic in a few variables, by enumerating the box's active sets (see the head of the file). */
export function solveBoxQp(problem: BoxQp): { h: Float64Array; value: number; atBound: ('min' | 'max' | null)[] } {
  const { Q, c, lo, hi } = problem;
  const m = c.length;
  if (m > 6) throw new Error(`solveBoxQp enumerates 3^m active sets: ${m} variables is too many`);
  let best: { h: Float64Array; value: number; gross: number } | undefined;
  // values this close are the same minimum (more instruments than the factors tell apart): the smaller gross Σ|h_j| is kept
  const tie = 1e-12 * Math.max(Math.abs(problem.q0), Number.MIN_VALUE);
  for (let code = 0; code < 3 ** m; code++) {
    // digit j of `code` in base 3: 0 free, 1 at its lower bound, 2 at its upper bound
    const state = Array.from({ length: m }, (_, j) => Math.floor(code / 3 ** j) % 3);
    const h = Float64Array.from(state, (s, j) => (s === 1 ? lo[j]! : s === 2 ? hi[j]! : 0));
    const free = state.flatMap((s, j) => (s === 0 ? [j] : []));
    if (free.length) {
      const f = free.length;
      const A = new Float64Array(f * f);
      const rhs = new Float64Array(f);
      free.forEach((i, a) => {
        free.forEach((j, b) => (A[a * f + b] = Q[i * m + j]!));
        let r = -c[i]!;
        for (let j = 0; j < m; j++) if (state[j] !== 0) r -= Q[i * m + j]! * h[j]!;
        rhs[a] = r;
      });
      const solved = solveChecked(A, rhs, f);
      if (!solved) continue;
      let feasible = true;
      free.forEach((j, a) => {
        const x = solved[a]!;
        const slack = 1e-12 * Math.max(1, Math.abs(lo[j]!), Math.abs(hi[j]!));
        if (!(x >= lo[j]! - slack && x <= hi[j]! + slack)) feasible = false;
        h[j] = Math.min(hi[j]!, Math.max(lo[j]!, x));
      });
      if (!feasible) continue;
    }
    const value = objective(problem, h);
    const gross = h.reduce((a, x) => a + Math.abs(x), 0);
    if (!best || value < best.value - tie || (value <= best.value + tie && gross < best.gross)) best = { h, value, gross };
  }
  // every ratio at a bound is one case, always feasible, so there is a best
  const { h, value } = best!;
  const atBound = Array.from(h, (x, j) => (x === lo[j] ? 'min' : x === hi[j] ? 'max' : null));
  return { h, value, atBound };
}

/** Solves A x = b for symmetric positive definite A; undefined where A is (numerically) singular. */
function solveChecked(A: Float64Array, b: Float64Array, n: number): Float64Array | undefined {
  let l: Float64Array;
  try {
    l = cholesky(A, n);
  } catch (error) {
    if (error instanceof NotPositiveDefiniteError) return undefined;
    throw error;
  }
  for (let j = 0; j < n; j++) if (!(l[j * n + j]! ** 2 > pivotTolerance * A[j * n + j]!)) return undefined;
  const x = choleskySolve(l, b, n);
  return x.every(Number.isFinite) ? x : undefined;
}

const risk = (daily: number) => ({ variance: daily * tradingDays, volatility: Math.sqrt(Math.max(0, daily) * tradingDays) });

/** The computation alone, on a sample already loaded that holds the holdings and the instruments. */
export function hedgeOfSample(sample: Sample, holdingsIn: Holding[], instruments: readonly string[], bounds: readonly { min: number; max: number }[]) {
  const { weights, basis } = portfolioWeights(holdingsIn, sample.lastClose);
  const factorNames = [...sample.factorNames];
  const k = factorNames.length;
  const m = instruments.length;
  const rf = sample.factors.get('RF')!;
  const n = sample.dates.length;

  const portfolio = new Float64Array(n);
  for (const [ticker, w] of weights) sample.returns.get(ticker)!.forEach((r, t) => (portfolio[t]! += w * r));
  const portfolioFit = fitFactors(sample, excessOf(portfolio, rf), 'the portfolio');
  const b = Float64Array.from(factorNames, (f) => portfolioFit.betas[f]!.estimate);
  const fits = instruments.map((ticker) => fitFactors(sample, excessOf(sample.returns.get(ticker)!, rf), ticker));
  // B, k × m: column j holds instrument j's betas
  const B = new Float64Array(k * m);
  fits.forEach((fit, j) => factorNames.forEach((f, p) => (B[p * m + j] = fit.betas[f]!.estimate)));
  const F = sampleCovariance(factorNames.map((f) => sample.factors.get(f)!));

  const Fx = (x: Float64Array) => Float64Array.from({ length: k }, (_, p) => factorNames.reduce((s, _f, q) => s + F[p * k + q]! * x[q]!, 0));
  const quad = (x: Float64Array) => { const fx = Fx(x); return x.reduce((s, v, p) => s + v * fx[p]!, 0); };
  const column = (j: number) => Float64Array.from({ length: k }, (_, p) => B[p * m + j]!);
  const FB = Array.from({ length: m }, (_, j) => Fx(column(j)));
  const Q = new Float64Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) Q[i * m + j] = column(i).reduce((s, v, p) => s + v * FB[j]![p]!, 0);
  // exactly symmetric, whatever the order of the sums
  for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) Q[j * m + i] = Q[i * m + j]!;
  const c = Float64Array.from({ length: m }, (_, j) => b.reduce((s, v, p) => s + v * FB[j]![p]!, 0));
  const q0 = quad(b);
  const lo = Float64Array.from(bounds, (x) => x.min);
  const hi = Float64Array.from(bounds, (x) => x.max);

  const solution = solveBoxQp({ q0, Q, c, lo, hi });
  const after = (h: ArrayLike<number>) => Float64Array.from(b, (v, p) => v + Array.from(h).reduce((s, hj, j) => s + B[p * m + j]! * hj, 0));
  const named = (x: Float64Array) => Object.fromEntries(factorNames.map((f, p) => [f, x[p]!]));
  const hedged = after(solution.h);
  // evaluated on the exposures, not the expanded quadratic, so `after` and the stated exposures agree to the last bit
  const residualAfter = Math.max(0, quad(hedged));
  const before = risk(q0);
  const afterRisk = risk(residualAfter);

  const candidates = instruments
    .map((ticker, j) => {
      const Qjj = Q[j * m + j]!;
      const unconstrained = Qjj > 0 ? -c[j]! / Qjj : null;
      const ratio = Math.min(hi[j]!, Math.max(lo[j]!, unconstrained ?? 0));
      const h = new Float64Array(m);
      h[j] = ratio;
      const exposures = after(h);
      return { instrument: ticker, ratio, unconstrainedRatio: unconstrained, atBound: ratio !== unconstrained, exposuresAfter: named(exposures), residual: risk(Math.max(0, quad(exposures))) };
    })
    .map((candidate, order) => ({ candidate, order }))
    .sort((x, y) => x.candidate.residual.variance - y.candidate.residual.variance || x.order - y.order)
    .map(({ candidate }, rank) => ({ rank: rank + 1, ...candidate, reduction: before.variance > 0 ? 1 - candidate.residual.variance / before.variance : 0 }));

  const legs = instruments.map((ticker, j) => ({
    instrument: ticker,
    ratio: solution.h[j]!,
    bounds: { min: lo[j]!, max: hi[j]! },
    atBound: solution.atBound[j] !== null,
    boundHit: solution.atBound[j],
    exposures: exposureSummary(fits[j]!),
  }));
  const words = legs.filter((l) => l.ratio !== 0).map((l) => `${l.ratio < 0 ? 'sell' : 'buy'} ${Math.abs(l.ratio).toFixed(4)} of the portfolio's value in ${l.instrument}`);

  return {
    asOf: sample.dates[n - 1]!,
    window: { from: sample.dates[0]!, to: sample.dates[n - 1]!, days: n },
    model: sample.model,
    modelReason: sample.modelReason,
    weightBasis: basis,
    objective: 'minimise the residual factor variance (b + Bh)ᵀ F (b + Bh) × 252 within the bounds',
    portfolio: exposureSummary(portfolioFit),
    instruments: legs,
    exposures: { before: named(b), after: named(hedged) },
    residualFactorRisk: {
      before,
      after: afterRisk,
      reduction: before.variance > 0 ? 1 - afterRisk.variance / before.variance : 0,
    },
    grossHedge: legs.reduce((s, l) => s + Math.abs(l.ratio), 0),
    explanation: words.length
      ? `${words.join('; ')}: the residual factor volatility goes from ${(before.volatility * 100).toFixed(2)} % to ${(afterRisk.volatility * 100).toFixed(2)} % a year.`
      : 'No position within the bounds lowers the residual factor variance: the hedge is empty.',
    candidates,
    factorCovariance: { factors: factorNames, annualized: factorNames.map((_, p) => factorNames.map((_, q) => F[p * k + q]! * tradingDays)) },
  };
}
