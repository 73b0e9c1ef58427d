// What a request's analytics hand to the runner: the numerical part of a portfolio computation,
// by name, with arguments that a worker thread can receive (structured clone: plain objects,
// arrays, Maps, typed arrays). The reads stay with the request; pool.ts runs the computation on
// a worker thread, or on the event loop when IDS_ANALYTICS_THREADS is 0, and tasks.ts names them.
//
// This module knows no computation, so that the context can hold a runner while the computations'
// modules read the context.
import type { Worker } from 'node:worker_threads';
import { ApiError, type ApiErrorOptions, type ErrorCode } from '../../core/errors.ts';

/** The computations tasks.ts registers. */
export type TaskName = 'analyze' | 'risk' | 'optimize' | 'hedge' | 'stress' | 'attribution' | 'exposures' | 'backtest';

export interface AnalyticsRunner {
  /** worker threads of the pool; 0 when computations run on the event loop */
  readonly threads: number;
  /**
   * The computation `name` of tasks.ts on `args`, whose function the caller names as F (the one
   * registered under `name`): its result, or the ApiError it refuses the request with.
   */
  run<F extends (...args: never[]) => unknown>(name: TaskName, ...args: Parameters<F>): Promise<Awaited<ReturnType<F>>>;
  /** the pool's worker threads now running (none before the first computation, or inline) */
  workers(): readonly Worker[];
  /** ends the worker threads; a computation still running is given up */
  close(): Promise<void>;
}

/**
 * A computation's end as it crosses back from a worker thread. Structured clone keeps an Error's
 * message but not its class or fields, so an ApiError (a 400 naming a parameter, a 422 of the
 * optimizer) travels as its code, message and options, and any other failure as its text.
 */
export type Outcome = { value: unknown } | { refused: { code: ErrorCode; message: string; options: ApiErrorOptions } } | { failed: { name: string; message: string; stack?: string } };

export async function outcomeOf(compute: () => unknown): Promise<Outcome> {
  try {
    return { value: await compute() };
  } catch (error) {
    if (error instanceof ApiError) return { refused: { code: error.code, message: error.message, options: error.options } };
    const e = error instanceof Error ? error : new Error(String(error));
    return { failed: { name: e.name, message: e.message, stack: e.stack } };
  }
}

/** The result, or the error thrown as the computation threw it (an unforeseen one keeps the worker's stack). */
export function settle(outcome: Outcome): unknown {
  if ('value' in outcome) return outcome.value;
  if ('refused' in outcome) throw new ApiError(outcome.refused.code, outcome.refused.message, outcome.refused.options);
  const error = new Error(outcome.failed.message);
  error.name = outcome.failed.name;
  if (outcome.failed.stack) error.stack = outcome.failed.stack;
  throw error;
}
