// Which meter a GraphQL operation is charged to. Reading and managing the account itself (who you
// are, keys, members, billing, limits, webhooks, monitors) is the free `platform` class at the
// REST door; the same fields asked for over GraphQL are too, one unit per operation, so that an
// organization refused 402 for data can still open its dashboard, see why, and pay. Everything
// else is the `graphql` class, charged by the operation's cost.
import { getNamedType, getOperationAST, isInterfaceType, isObjectType, Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLNamedType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
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

/**
 * Fields with a quota window of their own (`extensions.ownWindow`, the filing reader's `render`):
 * how many times the operation selects each, by class, charged to that class besides the
 * operation's meter. Such a field refuses to run inside a list, so a selection is one run.
 */
export function ownWindowCharges(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): ReadonlyMap<string, number> {
  // walked once per document and operation, as operationRoots is: the answer depends on nothing else
  let byName = ownWindowsOf.get(document);
  if (!byName) ownWindowsOf.set(document, (byName = new Map()));
  let charges = byName.get(operationName ?? '');
  if (!charges) byName.set(operationName ?? '', (charges = countOwnWindows(schema, document, operationName)));
  return charges;
}

const ownWindowsOf = new WeakMap<DocumentNode, Map<string, Map<string, number>>>();

function countOwnWindows(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Map<string, number> {
  const charges = new Map<string, number>();
  const roots = operationRoots(document, operationName);
  if (!roots) return charges;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const visit = (type: GraphQLNamedType | null | undefined, selectionSet: SelectionSetNode | undefined, depth: number) => {
    if (!selectionSet || depth > 30 || !type || !(isObjectType(type) || isInterfaceType(type))) return;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = type.getFields()[selection.name.value];
        const own = field?.extensions.ownWindow;
        if (typeof own === 'string') charges.set(own, (charges.get(own) ?? 0) + 1);
        if (field) visit(getNamedType(field.type), selection.selectionSet, depth + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type, selection.selectionSet, depth + 1);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(schema.getType(fragment.typeCondition.name.value), fragment.selectionSet, depth + 1);
      }
    }
  };
  const operation = roots.operation.operation;
  visit(operation === 'mutation' ? schema.getMutationType() : operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType(), roots.operation.selectionSet, 0);
  return charges;
}
