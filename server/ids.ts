// Prefixed identifiers (`org_…`, `key_…`) shared by GraphQL, REST and MCP, and secrets.
import { createHash, randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `count` base62 characters from the CSPRNG (rejection sampling keeps them uniform). */
export function randomBase62(count: number): string {
  let out = '';
  while (out.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 248 && out.length < count) out += alphabet[byte % 62];
    }
  }
  return out;
}

export type IdPrefix = 'org' | 'key' | 'usr' | 'evt' | 'err' | 'req' | 'run' | 'we' | 'del' | 'ss' | 'ctx' | 'mon' | 'eml' | 'art';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
