// Text a GraphQL operation passes in, checked before it runs. PostgreSQL text cannot hold a NUL
// character (U+0000; SQLSTATE 22021), and an argument carrying one (`search(q: "a\u0000b")`)
// failed at the database as a 500. Refused here, for every field at once, with the same code and
// words as a REST or MCP parameter (catalogue/params.ts): 400 invalid_request_parameter.
import { Kind, visit, type DocumentNode } from 'graphql';
import { ApiError, clipped } from '../core/errors.ts';

/** The path of the first string holding a NUL in a variable's value, iteratively (a socket's message is not depth-checked). */
function nulInValue(root: unknown, name: string): string | null {
  const stack: [unknown, string][] = [[root, name]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${path}.${i}`]));
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\0')) return `${path}.${key}`;
        stack.push([inner, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** The argument (or input field, `input.description`) whose string literal holds a NUL. */
function nulInDocument(document: DocumentNode): string | null {
  const names: string[] = [];
  let found: string | null = null;
  const named = { enter: (node: { name: { value: string } }) => void names.push(node.name.value), leave: () => void names.pop() };
  visit(document, {
    [Kind.ARGUMENT]: named,
    [Kind.OBJECT_FIELD]: named,
    [Kind.VARIABLE_DEFINITION]: { enter: (node) => void names.push(node.variable.name.value), leave: () => void names.pop() },
    [Kind.STRING]: (node) => {
      if (found === null && node.value.includes('\0')) found = names.join('.') || 'query';
    },
  });
  return found;
}

// A document's own text is looked at once (its requests share the parsed document); variables change with each.
const documentNul = new WeakMap<DocumentNode, string | null>();

function nulInDocumentOnce(document: DocumentNode): string | null {
  let found = documentNul.get(document);
  if (found === undefined) documentNul.set(document, (found = nulInDocument(document)));
  return found;
}

/** Refuses an operation whose arguments or variables carry a NUL character. */
export function refuseNulInput(document: DocumentNode, variables: Record<string, unknown> | null | undefined): void {
  let parameter = nulInDocumentOnce(document);
  for (const [name, value] of Object.entries(variables ?? {})) parameter ??= nulInValue(value, name);
  if (parameter === null) return;
  parameter = clipped(parameter);
  throw new ApiError('invalid_request_parameter', `Parameter \`${parameter}\` contains a NUL character (\\u0000), which text cannot hold; remove it.`, { details: { parameter } });
}
