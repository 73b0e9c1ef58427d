// What a GraphQL document will cost, computed before it runs from the document and its
// variables (static analysis; nothing is executed):
// - every field selected costs 1, and a field whose resolver does heavy work costs more (`fieldCosts`);
// - a field that takes a page size (`limit`, `first`, `last`) costs its selection that many times;
// - any other list (a statement's lines, a filing's sections) is part of an object loaded whole
//   (one query per list, however many parents: see test/data/nplus1.test.ts) and costs its
//   selection once.
// The document is also bounded in depth and aliases (tokens are bounded at parse). Introspection
// (`__schema`, `__type`) is measured like any other selection: its types are object types too.
import {
  getNamedType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  isObjectType,
  isInterfaceType,
  valueFromAST,
} from 'graphql';

/** What a resolver costs beyond its field, by `Type.field`: measured relative to one small read. */
// A unit is about what one small field costs to serve. Statements and segments load every
// statement fact of the company and compute from them: by npm run bench:reads, about 7 times a
// 25-fact read's time and 40 times a /v1/me.
export const fieldCosts: Record<string, number> = {
  'Query.facts': 100,
  'Query.statements': 1000,
  'Query.segments': 1000,
  'Query.entities': 5,
  'Query.filings': 5,
  'Query.forms': 5,
  'Query.events': 5,
  // a monitor's read run now (a draft's preview), and a scan of what was announced since its check
  'CompiledMonitor.preview': 5,
  'Monitor.waitingMatches': 5,
  // reads, unzips and cleans a whole document of megabytes when it is not cached
  'Filing.render': 100,
};

const sizeArguments = ['limit', 'first', 'last'];
/** a page size the service would never serve is priced as its largest page */
const largestPage = 100;
/** a page whose size is not given (or is a variable not sent) is the routes' default page */
const defaultPage = 25;

export interface CostLimits {
  maxCost: number;
  maxDepth: number;
  maxAliases: number;
}

export interface Measured {
  cost: number;
  depth: number;
  aliases: number;
  /** the operation reads the schema itself (`__schema`, `__type`) */
  introspection: boolean;
}

/** `read`, when given, collects the variables the measure depended on (the page sizes given as variables). */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined, operationName?: string | null, read?: Set<string>): Measured {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return { cost: 0, depth: 0, aliases: 0, introspection: false };
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  if (!root) return { cost: 0, depth: 0, aliases: 0, introspection: false };

  let aliases = 0;
  let depth = 0;

  // The entry points of introspection are fields of the query root that getFields() does not list.
  const queryRoot = schema.getQueryType();
  let introspection = false;
  const fieldOf = (type: GraphQLObjectType | GraphQLInterfaceType, name: string): GraphQLField<unknown, unknown> | undefined => {
    const meta = type === queryRoot ? [SchemaMetaFieldDef, TypeMetaFieldDef].find((f) => f.name === name) : undefined;
    if (meta) {
      introspection = true;
      return meta;
    }
    return type.getFields()[name];
  };

  const sizeOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): number | null => {
    for (const name of sizeArguments) {
      const definition = field.args.find((a) => a.name === name);
      if (!definition) continue;
      const given = node.arguments?.find((a) => a.name.value === name)?.value;
      const value = given ? valueOf(given, definition.type, variables, read) : definition.defaultValue;
      return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 1), largestPage) : defaultPage;
    }
    return null;
  };

  const costOf = (selectionSet: SelectionSetNode, type: GraphQLNamedType, level: number, seen: Set<string>): number => {
    if (!isObjectType(type) && !isInterfaceType(type)) return 0;
    depth = Math.max(depth, level);
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        total += costOf(selection.selectionSet, on ?? type, level, seen);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        const on = schema.getType(fragment.typeCondition.name.value) ?? type;
        total += costOf(fragment.selectionSet, on, level, new Set([...seen, fragment.name.value]));
        continue;
      }
      if (selection.alias) aliases++;
      const field = fieldOf(type, selection.name.value);
      if (!field) continue; // __typename, a leaf of every type
      const own = 1 + (fieldCosts[`${type.name}.${field.name}`] ?? 0);
      if (!selection.selectionSet) {
        total += own;
        continue;
      }
      const size = sizeOf(field, selection);
      total += own + (size ?? 1) * costOf(selection.selectionSet, getNamedType(field.type), level + 1, seen);
    }
    return total;
  };

  const cost = costOf(operation.selectionSet, root, 1, new Set());
  return { cost, depth, aliases, introspection };
}

function valueOf(node: ValueNode, type: GraphQLField<unknown, unknown>['args'][number]['type'], variables: Record<string, unknown> | null | undefined, read: Set<string> | undefined): unknown {
  if (node.kind === Kind.VARIABLE) {
    read?.add(node.name.value);
    return variables?.[node.name.value];
  }
  return valueFromAST(node, type, variables ?? undefined);
}

interface Measures {
  /** the variables a measure of the operation depends on */
  reads: string[];
  /** by the values of those variables */
  byValues: Map<string, Measured>;
}

// Clients send the same few documents with the same few page sizes: a document (one object per
// text, from the GraphQL door's parse cache or a persisted operation) is measured once per
// operation and page sizes, not walked again for every request.
const measures = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Measures>>>();
/** page sizes kept per operation; past them a document is measured each time */
const keptSizes = 64;

/** measureDocument, remembered per document, operation and the values of the variables it depends on. */
export function measureDocumentOnce(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null | undefined, operationName?: string | null): Measured {
  let byDocument = measures.get(schema);
  if (!byDocument) measures.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  const name = operationName ?? '';
  const known = byName.get(name);
  if (!known) {
    const read = new Set<string>();
    const measured = measureDocument(schema, document, variables, operationName, read);
    const reads = [...read];
    byName.set(name, { reads, byValues: new Map([[valuesKey(reads, variables), measured]]) });
    return measured;
  }
  const key = valuesKey(known.reads, variables);
  let measured = known.byValues.get(key);
  if (!measured) {
    measured = measureDocument(schema, document, variables, operationName);
    if (known.byValues.size < keptSizes) known.byValues.set(key, measured);
  }
  return measured;
}

const valuesKey = (names: string[], variables: Record<string, unknown> | null | undefined) => JSON.stringify(names.map((n) => variables?.[n] ?? null));
