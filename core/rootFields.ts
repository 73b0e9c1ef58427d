// The root fields a GraphQL operation asks for: what its access, role and meter are decided by.
import { getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/** The root fields a selection reaches, through fragment spreads and inline fragments too. */
export function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) names.push(...rootFieldNames(document, selection.selectionSet, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      if (fragment) names.push(...rootFieldNames(document, fragment.selectionSet, seen));
    }
  }
  return names;
}

/** An operation of a document and what its access, role and meter are decided by. */
export interface OperationRoots {
  operation: OperationDefinitionNode;
  /** the root fields it reaches, through fragments too */
  fields: string[];
  /** every root selection is a field written in the operation itself (no fragment) */
  direct: boolean;
}

// A document is walked once per operation name: the parse cache of the GraphQL door and the
// persisted operations hand the same document object to every request.
const walked = new WeakMap<DocumentNode, Map<string, OperationRoots | null>>();

/** The operation `operationName` picks (getOperationAST's rule) and its root fields, null when none. */
export function operationRoots(document: DocumentNode, operationName?: string | null): OperationRoots | null {
  let byName = walked.get(document);
  if (!byName) walked.set(document, (byName = new Map()));
  const key = operationName ?? '';
  if (byName.has(key)) return byName.get(key)!;
  const operation = getOperationAST(document, operationName);
  const roots = operation
    ? { operation, fields: rootFieldNames(document, operation.selectionSet), direct: operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD) }
    : null;
  byName.set(key, roots);
  return roots;
}
