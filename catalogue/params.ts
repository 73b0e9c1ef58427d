// Turns a request's path, query and body into a route's typed params, or into the documented
// 400 (SPEC 7.1): invalid_query_parameter, invalid_request_parameter or validation_error.
import { z } from 'zod';
import { ApiError, clipped } from '../core/errors.ts';
import { fieldName, issueSentence } from '../core/issues.ts';
import { syntaxParams } from './dataParams.ts';
import type { Route } from './route.ts';

function acceptedValuesOf(issue: z.core.$ZodIssue): string[] | undefined {
  if (issue.code === 'invalid_value') return issue.values.map(String);
  return undefined;
}

// The words say "parameter", not "query parameter": MCP passes a tool's arguments through here too.
function queryError(schema: z.ZodObject<z.ZodRawShape>, issue: z.core.$ZodIssue): ApiError {
  const known = Object.keys(schema.shape);
  if (issue.code === 'unrecognized_keys') {
    const parameter = clipped(issue.keys[0]!);
    return new ApiError('invalid_query_parameter', `Unknown parameter \`${parameter}\`. Accepted parameters: ${known.join(', ') || 'none'}.`, {
      details: { parameter, acceptedValues: known },
    });
  }
  const parameter = String(issue.path[0]);
  const acceptedValues = acceptedValuesOf(issue);
  const message = issueSentence(`Parameter \`${parameter}\``, issue);
  if (syntaxParams.has(parameter) && issue.code !== 'invalid_type') {
    return new ApiError('invalid_request_parameter', message, { details: { parameter } });
  }
  return new ApiError('invalid_query_parameter', message, {
    details: { parameter, ...(acceptedValues ? { acceptedValues } : {}) },
  });
}

/**
 * Where a NUL character (U+0000) is in a value: PostgreSQL text cannot hold one (SQLSTATE 22021),
 * so a value carrying it would fail at the database as a 500. Keys count too (a record's keys are
 * stored). Request values are JSON nested at most core/json.ts maxJsonDepth deep, or flat.
 */
function nulAt(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\0')) return [...path, key];
      const found = nulAt(inner, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

const nulReason = 'contains a NUL character (\\u0000), which text cannot hold; remove it';

/** A parameter holding a NUL character is syntactically invalid, whichever door it came through. */
function refuseNul(params: Record<string, unknown>): void {
  const at = nulAt(params);
  if (!at) return;
  const parameter = clipped(String(at[0]));
  throw new ApiError('invalid_request_parameter', `Parameter \`${parameter}\` ${nulReason}.`, { details: { parameter } });
}

function bodyIssue(issue: z.core.$ZodIssue) {
  const where = issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? [...issue.path, issue.keys[0]!] : issue.path;
  const subject = where.length ? fieldName(where) : 'The body';
  const message = issue.code === 'unrecognized_keys' && issue.keys.length === 1 ? `${subject} is not accepted here.` : issueSentence(subject, issue);
  return { path: where.length ? clipped(where.map(String).join('.')) : '(body)', message, code: issue.code };
}

function bodyError(issues: { path: string; message: string; code: string }[]): ApiError {
  const [first, ...more] = issues;
  const message = more.length ? `${first!.message} And ${more.length} more problem${more.length === 1 ? '' : 's'}: see details.issues.` : first!.message;
  return new ApiError('validation_error', message, { details: { issues } });
}

export function parseParams(route: Route, raw: { path: Record<string, string>; query: Record<string, unknown>; body: unknown }) {
  const { path: pathSchema, query: querySchema, body: bodySchema } = route.params;
  refuseNul(raw.path);
  refuseNul(raw.query);
  // A signed body is a sender's bytes, verified and read by its own route.
  const nulInBody = bodySchema && !route.signedBody ? nulAt(raw.body) : null;
  if (nulInBody) {
    const path = clipped(nulInBody.map(String).join('.')) || '(body)';
    throw bodyError([{ path, message: `${nulInBody.length ? fieldName(nulInBody) : 'The body'} ${nulReason}.`, code: 'invalid_string' }]);
  }

  let path: Record<string, unknown> = {};
  if (pathSchema) {
    const parsed = pathSchema.safeParse(raw.path, { reportInput: true });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const parameter = String(issue.path[0]);
      throw new ApiError('invalid_request_parameter', issueSentence(`Parameter \`${parameter}\``, issue), { details: { parameter } });
    }
    path = parsed.data;
  }

  let query: Record<string, unknown> = {};
  const querySchemaOrNone = querySchema ?? z.strictObject({});
  const parsedQuery = querySchemaOrNone.safeParse(raw.query, { reportInput: true });
  if (!parsedQuery.success) throw queryError(querySchemaOrNone, parsedQuery.error.issues[0]!);
  query = parsedQuery.data;

  let body: unknown;
  if (bodySchema) {
    const parsed = bodySchema.safeParse(raw.body ?? {}, { reportInput: true });
    if (!parsed.success) throw bodyError(parsed.error.issues.map(bodyIssue));
    body = parsed.data;
  }
  return { path, query, body };
}
