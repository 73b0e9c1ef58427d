// JSON a client sends, looked at before it is parsed. JSON.parse itself takes any nesting, but
// what walks the value afterwards (JSON.stringify, schema checks, GraphQL coercion) recurses,
// and a body of `[` repeated ten thousand times, well under the size limit, overflowed the stack:
// a 500 for what is the client's mistake. No request of this API nests nearly as deep as the limit.
import { ApiError } from './errors.ts';

/** The largest body (or socket message) any door reads: REST, MCP, /graphql and graphql-ws. */
export const maxBodyBytes = 1024 * 1024;

/** The deepest nesting of arrays and objects a JSON body or GraphQL variables may have. */
export const maxJsonDepth = 64;

const quote = 0x22;
const backslash = 0x5c;
const openers = new Set([0x5b, 0x7b]); // [ {
const closers = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, counted over the raw text
 * without parsing it (brackets inside strings do not count). Works on bytes as on characters:
 * every byte of a multi-byte UTF-8 character is above 0x7f, so none is taken for a bracket.
 */
export function nestedDeeperThan(text: string | Uint8Array, limit = maxJsonDepth): boolean {
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === backslash) i++;
      else if (c === quote) inString = false;
    } else if (c === quote) inString = true;
    else if (openers.has(c)) {
      if (++depth > limit) return true;
    } else if (closers.has(c) && depth > 0) depth--;
  }
  return false;
}

/** The refusal of JSON nested past the limit: the same invalid_json as any body that cannot be read. */
export function tooDeepError(): ApiError {
  return new ApiError('invalid_json', `The JSON nests arrays and objects more than ${maxJsonDepth} levels deep; no request needs that many.`, { details: { maxDepth: maxJsonDepth } });
}

/** Throws invalid_json for JSON text nested past the limit; checked before JSON.parse. */
export function refuseDeepJson(text: string | Uint8Array): void {
  if (nestedDeeperThan(text)) throw tooDeepError();
}

/** Whether a parsed value nests arrays and objects deeper than `limit`; the walk stops there, so it never recurses past it. */
function valueNestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (valueNestedDeeperThan(item, limit - 1)) return true;
  return false;
}

/**
 * JSON text parsed, and refused like refuseDeepJson when it nests past the limit, in one pass
 * over the text: JSON.parse (native, and it takes any nesting) and then a walk of the value that
 * stops at the limit, instead of a scan of every character in JavaScript before the parse. Text
 * that is not JSON answers undefined, after the scan refuses it if it is deep, as before.
 */
export function parseJsonWithinDepth(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    refuseDeepJson(text);
    return undefined;
  }
  if (valueNestedDeeperThan(parsed, maxJsonDepth)) throw tooDeepError();
  return parsed;
}
