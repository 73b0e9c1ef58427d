// The requests the fuzz suite sends, as generators over a route of the table: bad path and query
// parameters and bodies. test/fuzz.test.ts checks that each is answered harmlessly;
// test/contract.test.ts replays them to check each answer against the OpenAPI document.
import fc from 'fast-check';
import type { Route } from '../../catalogue/route.ts';

// Values a client gets wrong: wrong types, huge and negative numbers, long and control-character
// strings, dates and cursors that are not, unicode, injection-shaped text.
export const badScalar = fc.oneof(
  fc.constantFrom('', ' ', '-1', '0', '1e309', '99999999999999999999', 'NaN', 'null', 'true', '[]', '{}', '%00', '\u0000', '../../etc/passwd', "' OR 1=1 --", '2024-13-45', '2024-02-30', '-0001-01-01', '+002024-01-01', '9999-99-99', 'Zm9v', 'eyJpZCI6MX0', '💥', '\u202e'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constant('x'.repeat(5000)),
);

export const unknownParam = fc.stringMatching(/^[a-z_]{1,12}$/);

export function queryFor(route: Route) {
  const known = Object.keys(route.params.query?.shape ?? {});
  const name = known.length ? fc.oneof(fc.constantFrom(...known), unknownParam) : unknownParam;
  return fc.array(fc.tuple(name, badScalar), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
}

export function pathFor(route: Route) {
  const names = route.path.match(/\{\w+\}/g) ?? [];
  return fc.tuple(...names.map(() => badScalar)).map((values) => {
    let path = route.path;
    values.forEach((value, i) => (path = path.replace(names[i]!, encodeURIComponent(value) || '%20')));
    return path;
  });
}

export const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ raw: JSON.stringify(v), type: 'application/json' })),
  fc.string({ maxLength: 200 }).map((s) => ({ raw: s, type: 'application/json' })),
  fc.string({ maxLength: 200 }).map((s) => ({ raw: s, type: 'text/plain' })),
  fc.constant({ raw: '{"name": "' + 'x'.repeat(2_000_000) + '"}', type: 'application/json' }),
  fc.constant({ raw: '{"a":1}', type: 'application/x-www-form-urlencoded' }),
);
