// With Redis (REDIS_URL), a request's trace shows its Redis calls: the quota check of its meter
// class is a span of its own under the request's door, naming the command and never its keys.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, eventually, orgWithKey, startTestService, type TestService } from '../harness.ts';

interface Span {
  name: string;
  kind: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ redisUrl: process.env.REDIS_URL });
});
afterAll(() => t?.close());

const flat = (spans: Span[]): Span[] => spans.flatMap((s) => [s, ...flat(s.children)]);

it('traces the quota check in Redis under the request\'s door', async () => {
  const org = await orgWithKey(t, 'Traces Redis');
  const read = await call(t, 'GET', '/v1/limits', { key: org.key });
  expect(read.status).toBe(200);
  const trace = await eventually('the trace', async () => {
    const answer = await call(t, 'GET', `/v1/traces/${read.headers.get('request-id')}`, { key: org.key });
    return answer.status === 200 && answer;
  });
  const [door] = trace.body.spans as [Span];
  expect(door.name).toBe('rest limits_get');
  const redis = flat(door.children).filter((s) => s.attributes['db.system.name'] === 'redis');
  expect(redis.map((s) => s.name)).toContain('redis EVALSHA idsConsumeQuota');
  for (const s of redis) {
    expect(s.kind).toBe('client');
    expect(JSON.stringify(s.attributes)).not.toContain(org.orgId);
  }
});
