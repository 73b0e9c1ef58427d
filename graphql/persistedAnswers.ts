// A persisted data read sent to /graphql is answered from the same kept answers as its REST route:
// a data read answers the same for every caller with the same parameters (catalogue/route.ts
// `sharesAnswers`), so what the operation returned for some variables is kept with the data it
// came from, and dropped with it when an ingest commits (derived/dataCache.ts).
//
// Only the operations of those routes, sent as they are persisted (the same text once printed),
// by a caller their routes admit: anyone else's request runs, and is refused by the fields
// themselves as before. Pricing, quotas and billing have run by then (graphql/limits.ts); an
// answer with errors is never kept.
import { parse, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Context } from '../resolvers/context.ts';
import { authorize } from '../catalogue/pipeline.ts';
import type { Route } from '../catalogue/route.ts';
import { routes } from '../catalogue/routes/index.ts';
import { operationRoots } from '../core/rootFields.ts';

interface Persisted {
  /** the operation's name, unique among the persisted operations */
  name: string;
  /** the routes that run it: a caller must be admitted by each */
  routes: Route[];
}

let byText: Map<string, Persisted | null> | undefined;

/** The printed text of every persisted operation that only routes sharing their answers run. */
function persistedOperations(): Map<string, Persisted | null> {
  const found = new Map<string, Persisted | null>();
  for (const route of routes) {
    if (!route.operation) continue;
    const text = print(route.operation);
    const name = operationRoots(route.operation)?.operation.name?.value;
    const known = found.get(text);
    if (known === null) continue;
    if (!route.sharesAnswers || !name) found.set(text, null);
    else found.set(text, { name, routes: [...(known?.routes ?? []), route] });
  }
  return found;
}

// A parsed document is printed once: the parse cache gives every request of one text one document.
const recognized = new WeakMap<DocumentNode, Persisted | null>();

function persistedOf(document: DocumentNode): Persisted | null {
  let persisted = recognized.get(document);
  if (persisted === undefined) {
    byText ??= persistedOperations();
    persisted = byText.get(print(document)) ?? null;
    recognized.set(document, persisted);
  }
  return persisted;
}

const parsedByText = new Map<string, { document: DocumentNode; name: string }>();

/**
 * The document of a text that is exactly one of these persisted operations as printed (so one
 * parse serves every request sending it), and its name; undefined for any other text.
 */
export function persistedDocument(text: string): { document: DocumentNode; name: string } | undefined {
  const known = parsedByText.get(text);
  if (known) return known;
  byText ??= persistedOperations();
  const persisted = byText.get(text);
  if (!persisted) return undefined;
  const document = parse(text);
  recognized.set(document, persisted);
  const found = { document, name: persisted.name };
  parsedByText.set(text, found);
  return found;
}

function admitted(ctx: Context, persisted: Persisted): boolean {
  try {
    for (const route of persisted.routes) authorize(ctx.principal, route);
    return true;
  } catch {
    return false;
  }
}

class NotKept {
  constructor(readonly result: ExecutionResult) {}
}

/** Runs `execute`, or answers from what a persisted data read returned for the same variables. */
export async function persistedAnswer(args: ExecutionArgs, execute: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>): Promise<ExecutionResult> {
  const ctx = args.contextValue as Context;
  const persisted = persistedOf(args.document);
  if (!persisted || (args.operationName && args.operationName !== persisted.name) || !admitted(ctx, persisted)) return execute(args);
  const key = `graphql:${persisted.name}:${JSON.stringify(args.variableValues ?? {})}`;
  try {
    const data = await ctx.cache.data.answer(key, async () => {
      const result = await execute(args);
      if (result.errors?.length || !result.data) throw new NotKept(result);
      return result.data as object;
    });
    return { data: data as ExecutionResult['data'] };
  } catch (error) {
    if (error instanceof NotKept) return error.result;
    throw error;
  }
}
