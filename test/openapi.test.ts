// The contract: generated from the route table, valid OpenAPI 3.1, and what the service serves.
import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../catalogue/routes/index.ts';
import { meterClasses } from '../prisma/seed.ts';
import { call, startTestService, type TestService } from './harness.ts';

let t: TestService;
let served: any;
beforeAll(async () => {
  t = await startTestService();
  served = (await call(t, 'GET', '/openapi/sec-api.v1.json')).body;
});
afterAll(() => t?.close());

describe('/openapi/sec-api.v1.json', () => {
  it('validates as OpenAPI 3.1 with a dated version', async () => {
    const api = (await SwaggerParser.validate(structuredClone(served))) as { openapi: string; info: { version: string } };
    expect(api.openapi).toBe('3.1.0');
    expect(api.info.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is the committed snapshot (regenerate with npm run generate)', async () => {
    const snapshot = JSON.parse(await readFile(new URL('../rest/sec-api.v1.json', import.meta.url), 'utf8'));
    expect(served).toEqual(snapshot);
  });

  it('documents every route of the table, with its access and meter class', () => {
    for (const route of routes) {
      const operation = served.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation).toMatchObject({ operationId: route.name, 'x-access': route.access });
      expect(operation['x-meter-class']).toBe(route.meter ?? undefined);
      expect(operation.security).toEqual(route.access === 'public' ? [] : expect.arrayContaining([{ session: [] }]));
    }
    const operationIds = routes.map((r) => r.name);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('states the shapes SPEC 2.2 and 2.3 fix', () => {
    const processor = served.paths['/v1/billing/processor-config'].get.responses['200'].content['application/json'].schema;
    expect(processor.additionalProperties).toBe(false);
    expect(processor.required.sort()).toEqual(['livemode', 'object', 'publishableKey', 'requestId']);
    const limits = served.paths['/v1/limits'].get.responses['200'].content['application/json'].schema;
    expect(limits.properties.quotas.items.required.sort()).toEqual(['allowed', 'billingState', 'limit', 'meterClass', 'period', 'planKey', 'resetsAt']);
    expect(limits.properties.quotas.items.properties.period.enum).toEqual(['minute', 'hour', 'day', 'month']);
    const listKeys = served.paths['/v1/api_keys'].get;
    expect(listKeys.parameters.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
    expect(listKeys.responses['429'].headers['Retry-After']).toBeDefined();
    expect(served.components.schemas.Error.required).toEqual(['object', 'id', 'code', 'message', 'requestId', 'traceparent']);
  });

  it('states what the service checks of a request: calendar dates, seeded meter classes, one of ticker or cik', () => {
    const parameters = Object.values<any>(served.paths).flatMap((operations) => Object.values<any>(operations).flatMap((o) => o.parameters ?? []));
    // every date parameter (dataParams.ts dateParam: YYYY-MM-DD, a day of the calendar)
    const dates = parameters.filter((p) => p.schema?.pattern === '^\\d{4}-\\d{2}-\\d{2}$' && /YYYY-MM-DD/.test(p.description ?? ''));
    expect(dates.length).toBeGreaterThan(10);
    for (const p of dates) expect(p.schema, p.name).toMatchObject({ type: 'string', format: 'date' });

    const quote = served.paths['/v1/billing/quote'].post.requestBody.content['application/json'].schema;
    expect(quote.properties.meterClass.enum).toEqual(meterClasses.map((m) => m.key));
    expect(quote.oneOf).toEqual([{ required: ['meterClass'] }, { required: ['workflow'] }]);

    const members = served.paths['/v1/board/members'].get;
    for (const name of ['ticker', 'cik']) expect(members.parameters.find((p: { name: string }) => p.name === name).description).toContain('One of `ticker` or `cik` is required');
    expect(members.description).toContain('One of `ticker` or `cik` is required: without it, 400 `invalid_query_parameter`');
    expect(members.responses['400'].description).toContain('One of `ticker` or `cik` is required');
  });

  it('documents the download an export sends: the artifact itself, without a requestId', () => {
    const exported = served.paths['/v1/artifacts/{artifact_id}/export'].get.responses['200'];
    expect(exported.content['application/json'].schema.required).not.toContain('requestId');
    expect(exported.content['application/json'].schema.properties.requestId).toBeUndefined();
    expect(exported.headers['Content-Disposition'].required).toBe(true);
  });
});
