// POST /v1/portfolio/optimize: bounded optimizer scenarios over the holdings' weights, each a
// convex quadratic programme solved by HiGHS (the `highs` package: the HiGHS solver compiled to
// WebAssembly, no install script, nothing fetched at run time).
//
// Over the window loadSample chooses (the rule of /v1/portfolio/analyze), with the covariance of
// /v1/portfolio/risk: Σ = B F Bᵀ + Δ (B the holdings' OLS betas on the model's factors, F the
// sample factor covariance, Δ the OLS residual variances), annualised × 252. Every objective is
// minimised over weights w with Σ_i w_i = 1 and lo_i ≤ w_i ≤ hi_i (and, when asked, a turnover
// limit Σ_i |w_i − w0_i| ≤ T, written with auxiliary variables u_i ≥ |w_i − w0_i|):
//
//   factor_neutral   (B_Sᵀw)ᵀ F_SS (B_Sᵀw) + κ wᵀΣw      S: the targeted (non-market) factors
//   min_drawdown     (252/|D|) Σ_{t∈D} (wᵀr_t)² + κ wᵀΣw  D: window dates the benchmark fell
//   regime_aware     (γ/2) wᵀΣw − (Bπ)ᵀw                  π: annual factor premia of the regime
//
// κ = 0.01 keeps each Hessian positive definite (Δ > 0), so the optimum is unique and the same
// request always gives the same weights. Infeasible constraints are a 422, never a fallback.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import highsLoader, { type Highs } from 'highs';
import { ApiError } from '../../core/errors.ts';
import type { Context } from '../context.ts';
import { excessOf, fitFactors, loadPortfolioSample, portfolioWeights, type Holding } from './analyze.ts';
import { heldSeries, monthly, sourcesByKey } from './macro.ts';
import { regimeOf, regimeRule, yoyTrend, type RegimeName } from './macroPack.ts';
import { sampleCovariance } from './risk.ts';
import { forComputation, invalid, type ModelName, type Sample } from './window.ts';

const tradingDays = 252;
/** Weight of the total-variance term that makes factor_neutral and min_drawdown strictly convex. */
export const tieBreak = 0.01;
/** Default risk aversion γ of regime_aware. */
export const defaultRiskAversion = 5;
/** Slack within which a weight counts as sitting on a bound. */
const bindingTolerance = 1e-7;

export const objectives = ['factor_neutral', 'min_drawdown', 'regime_aware'] as const;
export type Objective = (typeof objectives)[number];

/**
 * Expected annual factor premia per regime (fractions): stylised, chosen by judgment rather than
 * estimated, like the hypothetical stress scenarios. Growth up favours the market and size,
 * inflation up value; growth down favours profitability and investment (quality), and the market
 * premium turns negative.
 */
export const regimePremia: Record<RegimeName, Record<string, number>> = {
  goldilocks: { 'Mkt-RF': 0.08, SMB: 0.02, HML: -0.01, RMW: 0.0, CMA: -0.01, Mom: 0.03 },
  reflation: { 'Mkt-RF': 0.06, SMB: 0.03, HML: 0.04, RMW: -0.01, CMA: 0.01, Mom: 0.01 },
  stagflation: { 'Mkt-RF': -0.04, SMB: -0.02, HML: 0.03, RMW: 0.03, CMA: 0.03, Mom: 0.0 },
  deflation: { 'Mkt-RF': -0.02, SMB: -0.03, HML: -0.02, RMW: 0.03, CMA: 0.02, Mom: 0.02 },
};

export interface OptimizeInput {
  holdings: Holding[];
  asOf?: string;
  lookbackDays: number;
  model?: ModelName;
  benchmark: string;
  objective: Objective;
  bounds: { min: number; max: number };
  longOnly: boolean;
  tickerBounds: { ticker: string; min?: number | null; max?: number | null }[];
  maxTurnover?: number | null;
  riskAversion: number;
  neutralFactors?: string[] | null;
}

// ---------------------------------------------------------------------------------------------
// The solver

let loaded: Promise<Highs> | undefined;
/** The HiGHS runtime, instantiated once per process (its solves are synchronous and independent). */
export function highs(): Promise<Highs> {
  loaded ??= highsLoader();
  return loaded;
}

let packageVersion: string | undefined;
function highsPackageVersion(): string {
  if (packageVersion === undefined) {
    try {
      const main = createRequire(import.meta.url).resolve('highs');
      packageVersion = (JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      packageVersion = 'unknown';
    }
  }
  return packageVersion;
}

/** Options every solve runs with: deterministic, and no regularisation (each Hessian is positive definite). */
const solverOptions = { output_flag: false, random_seed: 0, qp_regularization_value: 0, time_limit: 30 } as const;
/** The options of a solve: under a turnover limit the auxiliary columns have no curvature, so a tiny regularisation. */
const solverOptionsOf = (turnover: boolean) => ({ ...solverOptions, ...(turnover ? { qp_regularization_value: 1e-12 } : {}) });

export interface QpProblem {
  tickers: string[];
  /** Q, n×n row-major and symmetric: the objective is ½ wᵀQw + cᵀw */
  hessian: Float64Array;
  linear: Float64Array;
  lower: Float64Array;
  upper: Float64Array;
  /** the current weights, for the turnover limit */
  start: Float64Array;
  maxTurnover?: number | null;
}

export interface QpSolution {
  weights: Float64Array;
  objective: number;
  status: string;
  iterations: number;
}

const statusNames = (h: Highs) => new Map(Object.entries(h.constants.modelStatus).map(([name, code]) => [code as number, name]));

/** Solves the QP with HiGHS; a problem without a feasible point is 422 `optimization_infeasible`, any other non-optimal end 422 `optimization_failed`. */
export function solveQp(h: Highs, problem: QpProblem): QpSolution {
  const n = problem.tickers.length;
  const turnover = problem.maxTurnover != null;
  const cols = turnover ? 2 * n : n;
  const inf = h.infinity;
  // rows: Σw = 1; with a turnover limit, w_i − u_i ≤ w0_i, −w_i − u_i ≤ −w0_i and Σu ≤ T
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const rowLower: number[] = [];
  const rowUpper: number[] = [];
  const row = (entries: [number, number][], lo: number, hi: number) => {
    for (const [j, v] of entries) {
      indices.push(j);
      values.push(v);
    }
    starts.push(indices.length);
    rowLower.push(lo);
    rowUpper.push(hi);
  };
  row(problem.tickers.map((_, j) => [j, 1]), 1, 1);
  if (turnover) {
    for (let i = 0; i < n; i++) row([[i, 1], [n + i, -1]], -inf, problem.start[i]!);
    for (let i = 0; i < n; i++) row([[i, -1], [n + i, -1]], -inf, -problem.start[i]!);
    row(problem.tickers.map((_, i) => [n + i, 1]), -inf, problem.maxTurnover!);
  }
  // Hessian: lower triangle by column; the auxiliary columns have none
  const hStarts = [0];
  const hIndices: number[] = [];
  const hValues: number[] = [];
  for (let j = 0; j < cols; j++) {
    if (j < n) {
      for (let i = j; i < n; i++) {
        const v = problem.hessian[i * n + j]!;
        if (v !== 0 || i === j) {
          hIndices.push(i);
          hValues.push(v);
        }
      }
    }
    hStarts.push(hIndices.length);
  }
  const zeros = new Array(cols - n).fill(0);
  const model = {
    numCols: cols,
    numRows: rowLower.length,
    colCost: [...problem.linear, ...zeros],
    colLower: [...problem.lower, ...zeros],
    colUpper: [...problem.upper, ...zeros.map(() => inf)],
    rowLower,
    rowUpper,
    matrix: { format: 'csr' as const, numRows: rowLower.length, numCols: cols, starts, indices, values },
    hessian: { format: 'triangular' as const, dimension: cols, starts: hStarts, indices: hIndices, values: hValues },
  };
  const names = statusNames(h);
  const outcome = h.withModel(model, (m) => {
    m.options.set(solverOptionsOf(turnover));
    m.run();
    const status = m.getModelStatus();
    const iterations = Number(m.info.get('qp_iteration_count'));
    return { status, iterations, solution: status === h.constants.modelStatus.optimal ? m.getSolution().colValue.slice(0, n) : null, objective: m.getObjectiveValue() };
  });
  const status = names.get(outcome.status) ?? String(outcome.status);
  const solverDetails = { solver: 'HiGHS', solverStatus: status };
  if (outcome.status === h.constants.modelStatus.infeasible || outcome.status === h.constants.modelStatus.unboundedOrInfeasible) {
    throw new ApiError('optimization_infeasible', `No weights satisfy the constraints: HiGHS reports the problem ${status === 'infeasible' ? 'infeasible' : 'infeasible or unbounded'}${turnover ? ` (bounds, Σw = 1 and maxTurnover ${problem.maxTurnover})` : ''}.`, {
      details: { ...solverDetails, reason: turnover ? 'the bounds, the budget Σw = 1 and maxTurnover admit no weights' : 'the bounds and the budget Σw = 1 admit no weights' },
    });
  }
  if (!outcome.solution) {
    throw new ApiError('optimization_failed', `HiGHS ended with status ${status} before proving an optimum; no weights are given.`, { details: solverDetails });
  }
  return { weights: Float64Array.from(outcome.solution), objective: outcome.objective, status, iterations: outcome.iterations };
}

// ---------------------------------------------------------------------------------------------
// The regime

const regimeAsOfRule =
  'The regime of GET /v1/macro/high-signal-pack, computed from the INDPRO and CPIAUCSL (monthly) observations dated on or before the window\'s last date (a monthly observation is dated the first day of its month; the files carry no release dates, so a figure published after that date can be used).';

/** The growth/inflation regime as of a date, by the macro pack's rule on the observations up to it. */
export async function regimeAsOf(ctx: Context, date: string) {
  const [growthSeries, inflationSeries] = await Promise.all([heldSeries(ctx, 'INDPRO', 'monthly'), heldSeries(ctx, 'CPIAUCSL', 'monthly')]);
  const upTo = (s: typeof growthSeries) => monthly({ ...s, points: s.points.filter((p) => p.date <= date) });
  const growth = yoyTrend(upTo(growthSeries), 'INDPRO');
  const inflation = yoyTrend(upTo(inflationSeries), 'CPIAUCSL');
  if (!growth || !inflation) {
    throw new ApiError('market_data_not_found', `The regime as of ${date} needs INDPRO and CPIAUCSL (monthly) with at least 18 months of observations on or before it.`, {
      details: { series: ['INDPRO', 'CPIAUCSL'], asOf: date },
    });
  }
  return {
    regime: { name: regimeOf(growth, inflation), asOf: date, rule: regimeRule, asOfRule: regimeAsOfRule, growth, inflation },
    sources: await sourcesByKey(ctx, [growthSeries.sourceKey, inflationSeries.sourceKey]),
  };
}

// ---------------------------------------------------------------------------------------------
// The request

export async function optimizePortfolio(ctx: Context, input: OptimizeInput) {
  const benchmark = input.benchmark.toUpperCase();
  const sample = await loadPortfolioSample(ctx, input, benchmark);
  const regime = input.objective === 'regime_aware' ? await regimeAsOf(ctx, sample.dates[sample.dates.length - 1]!) : null;
  const result = await ctx.analytics.run<typeof optimizeTask>('optimize', forComputation(sample), input, benchmark, regime?.regime ?? null);
  const sources = [...sample.sources, ...(regime?.sources ?? [])].sort((a, b) => (a.sourceKey < b.sourceKey ? -1 : a.sourceKey > b.sourceKey ? 1 : 0));
  return { sample, sources, result };
}

interface Bounds {
  lower: Float64Array;
  upper: Float64Array;
}

/** Each ticker's bounds: the common ones, then its own; contradictory bounds are a 422 before any solve. */
function boundsOf(tickers: string[], input: OptimizeInput): Bounds {
  const { min, max } = input.bounds;
  if (input.longOnly && min < 0) throw invalid('bounds.min', `is ${min}, but longOnly is true: a weight's lower bound must be at least 0 (set longOnly to false to allow short weights)`);
  if (min > max) throw new ApiError('optimization_infeasible', `bounds.min ${min} is above bounds.max ${max}: no weight satisfies them.`, { details: { reason: 'min above max', parameter: 'bounds' } });
  const index = new Map(tickers.map((t, i) => [t, i]));
  const lower = new Float64Array(tickers.length).fill(min);
  const upper = new Float64Array(tickers.length).fill(max);
  const seen = new Set<string>();
  input.tickerBounds.forEach((b, k) => {
    const ticker = b.ticker.toUpperCase();
    const i = index.get(ticker);
    if (i === undefined) throw invalid(`tickerBounds[${k}].ticker`, `${ticker} is not among the holdings`);
    if (seen.has(ticker)) throw invalid(`tickerBounds[${k}].ticker`, `${ticker} has bounds twice`);
    seen.add(ticker);
    if (b.min != null) {
      if (input.longOnly && b.min < 0) throw invalid(`tickerBounds[${k}].min`, `is ${b.min}, but longOnly is true: a weight's lower bound must be at least 0`);
      lower[i] = b.min;
    }
    if (b.max != null) upper[i] = b.max;
    if (lower[i]! > upper[i]!) {
      throw new ApiError('optimization_infeasible', `${ticker}: its lower bound ${lower[i]} is above its upper bound ${upper[i]}.`, { details: { reason: 'min above max', ticker, min: lower[i], max: upper[i], parameter: `tickerBounds[${k}]` } });
    }
  });
  const sumMin = lower.reduce((a, b) => a + b, 0);
  const sumMax = upper.reduce((a, b) => a + b, 0);
  if (sumMax < 1 - 1e-12) {
    throw new ApiError('optimization_infeasible', `The upper bounds add up to ${sumMax}, below 1: no weights within them add up to 1.`, { details: { reason: 'sum of max below 1', sumMin, sumMax } });
  }
  if (sumMin > 1 + 1e-12) {
    throw new ApiError('optimization_infeasible', `The lower bounds add up to ${sumMin}, above 1: no weights within them add up to 1.`, { details: { reason: 'sum of min above 1', sumMin, sumMax } });
  }
  return { lower, upper };
}

/** optimizeSample with the HiGHS runtime of the thread it runs on (each worker thread instantiates its own). */
export async function optimizeTask(sample: Sample, input: OptimizeInput, benchmark: string, regime: Awaited<ReturnType<typeof regimeAsOf>>['regime'] | null) {
  return optimizeSample(await highs(), sample, input, benchmark, regime);
}

/** The computation alone, on a sample already loaded. */
export function optimizeSample(h: Highs, sample: Sample, input: OptimizeInput, benchmark: string, regime: Awaited<ReturnType<typeof regimeAsOf>>['regime'] | null) {
  const { weights: current, basis } = portfolioWeights(input.holdings, sample.lastClose);
  const tickers = [...current.keys()];
  const n = tickers.length;
  const factorNames = [...sample.factorNames];
  const k = factorNames.length;
  const rf = sample.factors.get('RF')!;
  const days = sample.dates.length;

  // the factor model of /v1/portfolio/risk, annualised
  const B = new Float64Array(n * k);
  const delta = new Float64Array(n);
  tickers.forEach((ticker, i) => {
    const fit = fitFactors(sample, excessOf(sample.returns.get(ticker)!, rf), ticker);
    factorNames.forEach((f, j) => (B[i * k + j] = fit.betas[f]!.estimate));
    let sse = 0;
    for (const e of fit.residuals) sse += e * e;
    delta[i] = (tradingDays * sse) / fit.dof;
  });
  const F = sampleCovariance(factorNames.map((f) => sample.factors.get(f)!)).map((v) => v * tradingDays);
  const sigma = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) for (let q = 0; q < k; q++) s += B[i * k + p]! * F[p * k + q]! * B[j * k + q]!;
      if (i === j) s += delta[i]!;
      sigma[i * n + j] = s;
      sigma[j * n + i] = s;
    }
  }

  const bounds = boundsOf(tickers, input);
  const Q = new Float64Array(n * n);
  const c = new Float64Array(n);
  let objective: Record<string, unknown>;
  const addScaled = (m: Float64Array, scale: number) => m.forEach((v, idx) => (Q[idx] += scale * v));

  if (input.objective === 'factor_neutral') {
    const targeted = input.neutralFactors?.length ? input.neutralFactors : factorNames.filter((f) => f !== 'Mkt-RF');
    targeted.forEach((f, i) => {
      if (!factorNames.includes(f)) throw invalid(`neutralFactors[${i}]`, `${f} is not a factor of ${sample.model}`, { acceptedValues: factorNames });
    });
    const S = targeted.map((f) => factorNames.indexOf(f));
    const styleCov = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (const p of S) for (const q of S) s += B[i * k + p]! * F[p * k + q]! * B[j * k + q]!;
        styleCov[i * n + j] = s;
      }
    }
    addScaled(styleCov, 2);
    addScaled(sigma, 2 * tieBreak);
    objective = {
      name: 'factor_neutral',
      statement: `minimise (B_Sᵀw)ᵀ F_SS (B_Sᵀw) + ${tieBreak} · wᵀΣw: the annualised variance the targeted factors S bring to the portfolio, with ${tieBreak} × its total variance so that among near-neutral portfolios the least risky one is chosen and the optimum is unique. The market factor is not targeted unless named: its beta is left free and reported.`,
      targetedFactors: targeted,
    };
  } else if (input.objective === 'min_drawdown') {
    const bench = sample.returns.get(benchmark)!;
    const down = sample.dates.map((_, t) => t).filter((t) => bench[t]! < 0);
    if (!down.length) throw invalid('lookbackDays', `${benchmark} fell on no date of the window: the downside second moment is undefined`);
    const semi = new Float64Array(n * n);
    const series = tickers.map((t) => sample.returns.get(t)!);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (const t of down) s += series[i]![t]! * series[j]![t]!;
        s *= tradingDays / down.length;
        semi[i * n + j] = s;
        semi[j * n + i] = s;
      }
    }
    addScaled(semi, 2);
    addScaled(sigma, 2 * tieBreak);
    objective = {
      name: 'min_drawdown',
      statement: `minimise (${tradingDays}/|D|) Σ_{t∈D} (wᵀr_t)² + ${tieBreak} · wᵀΣw, D the window's dates on which ${benchmark} fell: the annualised second moment of the portfolio's returns on the benchmark's down days (their mean loss and its spread), with ${tieBreak} × the total variance so that the optimum is unique.`,
      proxy: 'A quadratic proxy for drawdown, not drawdown itself: the peak-to-trough loss of a path is not a quadratic function of the weights. Losses on the days the market fell are what builds drawdowns; `maxDrawdown` reports the realised in-sample drawdown before and after, for comparison.',
      downsideDays: down.length,
    };
  } else {
    if (!regime) throw new Error('regime_aware without a regime');
    const premia = regimePremia[regime.name];
    const pi = factorNames.map((f) => premia[f] ?? 0);
    for (let i = 0; i < n; i++) {
      let mu = 0;
      for (let p = 0; p < k; p++) mu += B[i * k + p]! * pi[p]!;
      c[i] = -mu;
    }
    addScaled(sigma, input.riskAversion);
    objective = {
      name: 'regime_aware',
      statement: `minimise (γ/2) · wᵀΣw − μᵀw with γ = ${input.riskAversion} and μ = Bπ, π the annual factor premia of the regime (${regime.name}); alphas are taken to be 0. Equivalently, maximise expected excess return less γ/2 × variance.`,
      riskAversion: input.riskAversion,
      premia: Object.fromEntries(factorNames.map((f, p) => [f, pi[p]!])),
      premiaTable: regimePremia,
      premiaNote: 'Stylised annual premia per regime, chosen by judgment rather than estimated (as the hypothetical stress scenarios are); a factor the table lacks counts 0.',
      expectedReturns: Object.fromEntries(tickers.map((t, i) => [t, -c[i]!])),
    };
  }

  const w0 = Float64Array.from(tickers, (t) => current.get(t)!);
  const solved = solveQp(h, { tickers, hessian: Q, linear: c, lower: bounds.lower, upper: bounds.upper, start: w0, maxTurnover: input.maxTurnover });
  const w = solved.weights;

  const value = (x: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      let qi = 0;
      for (let j = 0; j < n; j++) qi += Q[i * n + j]! * x[j]!;
      s += 0.5 * x[i]! * qi + c[i]! * x[i]!;
    }
    return s;
  };
  const exposuresOf = (x: Float64Array) => Object.fromEntries(factorNames.map((f, p) => [f, tickers.reduce((s, _, i) => s + B[i * k + p]! * x[i]!, 0)]));
  const varianceOf = (x: Float64Array) => {
    const e = factorNames.map((_, p) => tickers.reduce((s, _, i) => s + B[i * k + p]! * x[i]!, 0));
    let factor = 0;
    for (let p = 0; p < k; p++) for (let q = 0; q < k; q++) factor += e[p]! * F[p * k + q]! * e[q]!;
    let idiosyncratic = 0;
    for (let i = 0; i < n; i++) idiosyncratic += delta[i]! * x[i]! * x[i]!;
    const variance = factor + idiosyncratic;
    return { variance, volatility: Math.sqrt(Math.max(variance, 0)), factor, idiosyncratic };
  };
  const maxDrawdown = (x: Float64Array) => {
    let wealth = 1;
    let peak = 1;
    let worst = 0;
    for (let t = 0; t < days; t++) {
      let r = 0;
      for (let i = 0; i < n; i++) r += x[i]! * sample.returns.get(tickers[i]!)![t]!;
      wealth *= 1 + r;
      peak = Math.max(peak, wealth);
      worst = Math.max(worst, 1 - wealth / peak);
    }
    return worst;
  };

  const boundOf = (i: number) => (Math.abs(w[i]! - bounds.lower[i]!) <= bindingTolerance ? 'min' : Math.abs(w[i]! - bounds.upper[i]!) <= bindingTolerance ? 'max' : null);
  const rows = tickers.map((ticker, i) => ({ ticker, before: w0[i]!, after: w[i]!, change: w[i]! - w0[i]!, min: bounds.lower[i]!, max: bounds.upper[i]!, bound: boundOf(i) }));
  const turnover = rows.reduce((s, r) => s + Math.abs(r.change), 0);

  return {
    asOf: sample.dates[days - 1]!,
    window: { from: sample.dates[0]!, to: sample.dates[days - 1]!, days },
    model: sample.model,
    modelReason: sample.modelReason,
    benchmark,
    weightBasis: basis,
    objective,
    constraints: {
      budget: 'Σ w = 1',
      longOnly: input.longOnly,
      bounds: input.bounds,
      tickerBounds: input.tickerBounds.map((b) => ({ ticker: b.ticker.toUpperCase(), min: b.min ?? null, max: b.max ?? null })),
      maxTurnover: input.maxTurnover ?? null,
    },
    ...(regime ? { regime } : {}),
    weights: rows,
    bindingBounds: rows.filter((r) => r.bound).map((r) => ({ ticker: r.ticker, bound: r.bound!, value: r.bound === 'min' ? r.min : r.max })),
    turnover: { value: turnover, limit: input.maxTurnover ?? null, binding: input.maxTurnover != null && Math.abs(turnover - input.maxTurnover) <= 1e-6 },
    exposures: { factors: factorNames, before: exposuresOf(w0), after: exposuresOf(w) },
    risk: { before: varianceOf(w0), after: varianceOf(w) },
    objectiveValue: { before: value(w0), after: value(w), note: 'The objective at the current weights (which need not satisfy the bounds) and at the optimum, in the units of the statement (annualised).' },
    maxDrawdown: { before: maxDrawdown(w0), after: maxDrawdown(w), note: 'Realised over the window with the weights held constant (rebalanced daily): in-sample, for comparison, not a forecast.' },
    solver: {
      library: 'highs',
      packageVersion: highsPackageVersion(),
      highsVersion: h.version.string,
      gitHash: h.version.gitHash,
      method: 'HiGHS QP solver (active set), on the weights as the only variables (plus one auxiliary variable per holding under a turnover limit)',
      status: solved.status,
      iterations: solved.iterations,
      objective: solved.objective,
      options: solverOptionsOf(input.maxTurnover != null),
    },
  };
}
