// Executes an operation with a compiled executor (graphql-jit): a document is compiled once per
// schema and operation name into a function that runs it, instead of graphql-js walking the
// document and the schema again for every request and every item of every list. Both doors use it:
// the persisted operations behind REST and MCP (catalogue/executor.ts) and /graphql.
//
// What it answers is graphql-js's answer: a document jit cannot compile is executed by graphql-js,
// and so are variables that do not coerce (no resolver has run then), so that their errors keep
// graphql-js's words, which clients and toApiError read.
import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { inSpan } from '../core/tracing.ts';
import { operationRoots } from '../core/rootFields.ts';

type Compiled = CompiledQuery['query'];

interface Entry {
  /** how many times the document ran: an ad-hoc document is compiled only once it comes back */
  runs: number;
  /** the compiled operation; null when jit could not compile it */
  compiled?: Compiled | null;
}

// Parsed documents are shared by the requests that send the same text (the GraphQL door's parse
// cache) and persisted ones are module constants, so a document object is the key.
const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Entry>>>();

/** Compiling costs about what a few executions do: a document sent once is not worth it. */
const compileAtRun = 2;

function entryOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Entry {
  let byDocument = bySchema.get(schema);
  if (!byDocument) bySchema.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let entry = byName.get(key);
  if (!entry) byName.set(key, (entry = { runs: 0 }));
  return entry;
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Compiled | null {
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    return isCompiledQuery(compiled) ? compiled.query : null;
  } catch {
    return null; // a construct jit does not support: graphql-js runs it
  }
}

/** graphql-js's `execute`, compiled: the same arguments, the same result; the executor's span of a traced request. */
export function executeCompiled(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const operation = () => operationRoots(args.document, args.operationName)?.operation;
  return inSpan(
    () => `execute ${operation()?.name?.value ?? 'anonymous'}`,
    () => ({ 'graphql.operation.name': operation()?.name?.value ?? '', 'graphql.operation.type': operation()?.operation ?? '' }),
    () => executeOnce(args),
  );
}

function executeOnce(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const { schema, document, operationName } = args;
  const entry = entryOf(schema, document, operationName);
  if (entry.compiled === undefined && ++entry.runs >= compileAtRun) entry.compiled = compile(schema, document, operationName);
  if (!entry.compiled) return execute(args);
  const result = entry.compiled(args.rootValue, args.contextValue, args.variableValues);
  const settled = (done: ExecutionResult) => ('data' in done ? done : execute(args));
  return result instanceof Promise ? result.then(settled) : settled(result);
}
