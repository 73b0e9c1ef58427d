// Turns a request's path, query and body into a route's typed params, or into the documented
// 400 (SPEC 7.1): invalid_query_parameter, invalid_request_parameter or validation_error.
import { z } from 'zod';
import { ApiError } from '../core/errors.ts';
import { syntaxParams } from './dataParams.ts';
import type { Route } from './route.ts';

function acceptedValuesOf(issue: z.core.$ZodIssue): string[] | undefined {
  if (issue.code === 'invalid_value') return issue.values.map(String);
  return undefined;
}

function queryError(schema: z.ZodObject<z.ZodRawShape>, issue: z.core.$ZodIssue): ApiError {
  const known = Object.keys(schema.shape);
  if (issue.code === 'unrecognized_keys') {
    const parameter = issue.keys[0]!;
    return new ApiError('invalid_query_parameter', `Unknown query parameter \`${parameter}\`. Accepted parameters: ${known.join(', ') || 'none'}.`, {
      details: { parameter, acceptedValues: known },
    });
  }
  const parameter = String(issue.path[0]);
  const acceptedValues = acceptedValuesOf(issue);
  if (syntaxParams.has(parameter) && issue.code !== 'invalid_type') {
    return new ApiError('invalid_request_parameter', `Query parameter \`${parameter}\`: ${issue.message}.`, { details: { parameter } });
  }
  return new ApiError('invalid_query_parameter', `Query parameter \`${parameter}\`: ${issue.message}.`, {
    details: { parameter, ...(acceptedValues ? { acceptedValues } : {}) },
  });
}

export function parseParams(route: Route, raw: { path: Record<string, string>; query: Record<string, unknown>; body: unknown }) {
  const { path: pathSchema, query: querySchema, body: bodySchema } = route.params;

  let path: Record<string, unknown> = {};
  if (pathSchema) {
    const parsed = pathSchema.safeParse(raw.path);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const parameter = String(issue.path[0]);
      throw new ApiError('invalid_request_parameter', `Path parameter \`${parameter}\`: ${issue.message}.`, { details: { parameter } });
    }
    path = parsed.data;
  }

  let query: Record<string, unknown> = {};
  const querySchemaOrNone = querySchema ?? z.strictObject({});
  const parsedQuery = querySchemaOrNone.safeParse(raw.query);
  if (!parsedQuery.success) throw queryError(querySchemaOrNone, parsedQuery.error.issues[0]!);
  query = parsedQuery.data;

  let body: unknown;
  if (bodySchema) {
    const parsed = bodySchema.safeParse(raw.body ?? {});
    if (!parsed.success) {
      throw new ApiError('validation_error', 'The request body does not match the schema; see details.issues.', {
        details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message, code: i.code })) },
      });
    }
    body = parsed.data;
  }
  return { path, query, body };
}
