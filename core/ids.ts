// Prefixed identifiers (`org_…`, `key_…`) shared by GraphQL, REST and MCP, and secrets.
import { createHash, randomFillSync } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// CSPRNG bytes are drawn 4 KiB at a time (as Node does for randomUUID): every request takes a
// request id and a trace id, and one draw per id was a measurable share of a cheap request.
const pool = Buffer.alloc(4096);
let taken = pool.length;

function randomByte(): number {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  return pool[taken++]!;
}

/** `count` base62 characters from the CSPRNG (rejection sampling keeps them uniform). */
export function randomBase62(count: number): string {
  let out = '';
  while (out.length < count) {
    const byte = randomByte();
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

/** `bytes` (at most 4096) random bytes from the CSPRNG as lowercase hex. */
export function randomHex(bytes: number): string {
  if (taken + bytes > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  return pool.toString('hex', taken, (taken += bytes));
}

export type IdPrefix = 'org' | 'key' | 'usr' | 'evt' | 'err' | 'req' | 'run' | 'we' | 'del' | 'ss' | 'ctx' | 'mon' | 'eml' | 'art' | 'ses' | 'ach' | 'inv' | 'aud' | 'stg';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
