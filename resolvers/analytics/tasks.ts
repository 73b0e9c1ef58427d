// The computations an analytics request hands to the runner (runner.ts), by name: each the pure
// part of its route, on arguments a worker thread can receive. The worker entry (worker.ts) and
// the inline runner (pool.ts, IDS_ANALYTICS_THREADS=0) run them from here.
import { analyzeSample, exposuresOfSample } from './analyze.ts';
import { attributeSamples } from './attribution.ts';
import { backtestSample } from './backtest.ts';
import { hedgeOfSample } from './hedge.ts';
import { optimizeTask } from './optimize.ts';
import { riskOfSample } from './portfolioRisk.ts';
import type { TaskName } from './runner.ts';
import { stressOfSample } from './stress.ts';

export const tasks = {
  analyze: analyzeSample,
  risk: riskOfSample,
  optimize: optimizeTask,
  hedge: hedgeOfSample,
  stress: stressOfSample,
  attribution: attributeSamples,
  exposures: exposuresOfSample,
  backtest: backtestSample,
} satisfies Record<TaskName, (...args: never[]) => unknown>;

/** Runs the computation registered under `name`. */
export function runTask(name: TaskName, args: unknown[]): unknown {
  const compute = tasks[name] as (...args: unknown[]) => unknown;
  if (!compute) throw new Error(`no analytics computation ${JSON.stringify(name)}`);
  return compute(...args);
}
