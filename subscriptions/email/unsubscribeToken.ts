// Signed unsubscribe links for monitor digest emails.
//
// A token is `<payload>.<signature>`, both base64url: the payload is JSON {v: 1, m: monitorId,
// a: addressHash(address)} and the signature is HMAC-SHA256 under the server key over
// 'ids-unsubscribe-v1.' + payload. The prefix keeps these MACs from ever standing for another
// use of the same key. The address is carried as a hash, so links do not put it into access
// logs, while the caller can still check that a token names the monitor's current address.
//
// Tokens never expire on purpose: an unsubscribe link in an old email must keep working (RFC 8058
// and the bulk-sender rules of the large mailbox providers expect that). All a token can do is
// turn email delivery off for the one monitor and address it names.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const version = 1;
const domain = 'ids-unsubscribe-v1.';
/** Longer tokens are rejected unread; the ones we issue are about 130 characters. */
export const maxTokenLength = 512;
const base64url = /^[A-Za-z0-9_-]+$/;
const hash16 = /^[0-9a-f]{16}$/;

/** First 16 hex characters of SHA-256 of the trimmed, lower-cased address. */
export function addressHash(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('hex').slice(0, 16);
}

function mac(key: Buffer, payloadPart: string): string {
  return createHmac('sha256', key).update(domain + payloadPart).digest('base64url');
}

export function signUnsubscribeToken(key: Buffer, claim: { monitorId: string; address: string }): string {
  if (key.length < 16) throw new Error('unsubscribe key too short');
  const payloadPart = Buffer.from(JSON.stringify({ v: version, m: claim.monitorId, a: addressHash(claim.address) })).toString('base64url');
  const token = `${payloadPart}.${mac(key, payloadPart)}`;
  // Never hand out a link that verification would refuse.
  if (token.length > maxTokenLength) throw new Error('unsubscribe token too long (monitor id too long)');
  return token;
}

/** The claim of a genuine token, else null. Never throws: the token is client input. */
export function verifyUnsubscribeToken(key: Buffer, token: string): { monitorId: string; addressHash: string } | null {
  if (typeof token !== 'string' || token.length > maxTokenLength) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [payloadPart, signaturePart] = parts;
  if (!base64url.test(payloadPart) || !base64url.test(signaturePart)) return null;
  // Compare the canonical encodings, not decoded bytes: base64url decoding ignores stray trailing
  // bits, which would let several spellings of one signature verify.
  const expected = Buffer.from(mac(key, payloadPart));
  const given = Buffer.from(signaturePart);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null) return null;
    const { v, m, a } = payload as Record<string, unknown>;
    if (v !== version || typeof m !== 'string' || !m || typeof a !== 'string' || !hash16.test(a)) return null;
    return { monitorId: m, addressHash: a };
  } catch {
    return null;
  }
}
