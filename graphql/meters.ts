// Which meter a GraphQL operation is charged to. Reading and managing the account itself (who you
// are, keys, members, billing, limits, webhooks, monitors) is the free `platform` class at the
// REST door; the same fields asked for over GraphQL are too, one unit per operation, so that an
// organization refused 402 for data can still open its dashboard, see why, and pay. Everything
// else is the `graphql` class, charged by the operation's cost.
import { getOperationAST, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { operationRoots, rootFieldNames } from '../core/rootFields.ts';
import { routes } from '../catalogue/routes/index.ts';

export interface OperationMeter {
  meterClass: 'platform' | 'graphql';
  /** units charged: 1 for a platform operation, else the operation's cost */
  units: number;
}

type RootField = `${OperationDefinitionNode['operation']}.${string}`;

/**
 * The root fields the platform routes' persisted operations run (routes metered `platform`, or
 * not metered at all), less any that a metered data route also runs; and the account's fields no
 * route runs (reads, and the live feeds of its own keys and streams), marked `meteredAsPlatform`.
 * Any other field is charged as `graphql`.
 */
function platformRootFields(schema: GraphQLSchema): Set<RootField> {
  const platform = new Set<RootField>();
  const data = new Set<RootField>();
  for (const route of routes) {
    const operation = route.operation && getOperationAST(route.operation);
    if (!route.operation || !operation) continue;
    const into = route.meter === 'platform' || route.meter === null ? platform : data;
    for (const name of rootFieldNames(route.operation, operation.selectionSet)) into.add(`${operation.operation}.${name}`);
  }
  for (const field of data) platform.delete(field);
  for (const [operation, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()], ['subscription', schema.getSubscriptionType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) if (field.extensions.meterClass === 'platform') platform.add(`${operation}.${field.name}`);
  }
  return platform;
}

let platformFields: Set<RootField> | undefined;

/** `cost`: the operation's measured cost (graphql/cost.ts). */
export function operationMeter(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, cost: number): OperationMeter {
  platformFields ??= platformRootFields(schema);
  const roots = operationRoots(document, operationName);
  const fields = roots ? roots.fields.filter((name) => !name.startsWith('__')) : [];
  const allPlatform = roots && fields.length > 0 && fields.every((name) => platformFields!.has(`${roots.operation.operation}.${name}`));
  return allPlatform ? { meterClass: 'platform', units: 1 } : { meterClass: 'graphql', units: cost };
}
