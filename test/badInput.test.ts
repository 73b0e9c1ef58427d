// The list routes' bad filters, as a first fuzz found them: every one was a 500. A bad value is
// the client's to fix: 400 in the error envelope, naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectEnvelope, orgWithKey, startTestService, type TestService } from './harness.ts';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key } = await orgWithKey(t));
});
afterAll(() => t?.close());

// [route, code, the bad parameters of which the answer names one]
const cases: [string, string, string[]][] = [
  ['/v1/filings?filed_from=%2500&cik=-1', 'invalid_request_parameter', ['filed_from', 'cik']],
  ['/v1/forms/1-a?filed_to=-1&filed_from=-1', 'invalid_request_parameter', ['filed_to', 'filed_from']],
  ['/v1/forms/144?include_samples=-1&filed_from=-1', 'invalid_query_parameter', ['include_samples']],
  ['/v1/forms/ncen?cik=&filed_to=0', 'invalid_request_parameter', ['cik']],
  ['/v1/events/auditor-changes?filed_from=2024-13-45&filed_to=%2500', 'invalid_request_parameter', ['filed_from']],
  ['/v1/events/auditor-changes?filed_from=-1&cursor=99999999999999999999', 'invalid_request_parameter', ['filed_from']],
  ['/v1/events/auditor-changes?cursor=99999999999999999999', 'invalid_query_parameter', ['cursor']],
  ['/v1/filings?cursor=not-one-of-ours', 'invalid_query_parameter', ['cursor']],
  ['/v1/filings?filed_to=2024-02-30', 'invalid_request_parameter', ['filed_to']],
  ['/v1/filings?filed_from=+002024-01-01', 'invalid_request_parameter', ['filed_from']],
  // a cursor in the connections' own encoding, naming a number where the list's key is a string
  ['/v1/filings?cursor=R1BDOk46MTI=', 'invalid_query_parameter', ['cursor']],
  ['/v1/forms/1-a?cursor=R1BDOk46MTI=', 'invalid_query_parameter', ['cursor']],
];

describe('bad filters', () => {
  it.each(cases)('%s is 400 %s naming one of %s', async (route, code, parameters) => {
    const answer = await call(t, 'GET', route, { key });
    expectEnvelope(answer, 400, code);
    expect(parameters).toContain(answer.body.details.parameter);
  });
});
