// The one executor behind REST and MCP: runs a pre-parsed persisted document in process, against
// the same schema as /graphql, with the caller's context. Each document is validated once and
// compiled once (catalogue/compiledExecution.ts).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { validate, type DocumentNode } from 'graphql';
import type { Context } from '../resolvers/context.ts';
import { schema } from '../schema/index.ts';
import { toApiError, unexpectedError } from '../core/errors.ts';
import { executeCompiled } from './compiledExecution.ts';

const validated = new WeakSet<DocumentNode>();

export function assertValidOperation(document: DocumentNode): void {
  if (validated.has(document)) return;
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`persisted operation does not match the schema: ${errors.map((e) => e.message).join('; ')}`);
  validated.add(document);
}

export async function runOperation<TData, TVars>(document: TypedDocumentNode<TData, TVars>, variables: TVars, ctx: Context): Promise<TData> {
  assertValidOperation(document);
  const result = await executeCompiled({ schema, document, variableValues: variables as Record<string, unknown>, contextValue: ctx });
  const [first] = result.errors ?? [];
  if (first) {
    const known = toApiError(first);
    if (known) throw known;
    ctx.logger.error({ requestId: ctx.requestId, err: first.originalError ?? first, path: first.path }, 'operation failed');
    throw unexpectedError();
  }
  return result.data as TData;
}

/** A route's data built without executing its operation (operationRoute's `data`): its failures answered as runOperation answers them. */
export async function runDirect<TData>(build: () => Promise<TData>, ctx: Context): Promise<TData> {
  try {
    return await build();
  } catch (error) {
    const known = toApiError(error);
    if (known) throw known;
    ctx.logger.error({ requestId: ctx.requestId, err: error }, 'operation failed');
    throw unexpectedError();
  }
}
