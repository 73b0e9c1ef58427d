// Webhook signing secrets and signatures (Standard Webhooks v1).
//
// A secret is `whsec_` + base64 of 32 random bytes; the HMAC key is those bytes. It is shown to the
// customer once (at creation and at rotation) and stored only encrypted, with AES-256-GCM under the
// server's webhook key: IDS_WEBHOOK_SECRET_KEY (base64 of 32 bytes), else a key made once in the
// state folder (`webhook-key`). Every instance that delivers must hold the same key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const secretPrefix = 'whsec_';

export function newSigningSecret(): string {
  return secretPrefix + randomBytes(32).toString('base64');
}

/** The server key that encrypts signing secrets at rest. */
export async function webhookKey(stateDir: string, configured: string | undefined): Promise<Buffer> {
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('IDS_WEBHOOK_SECRET_KEY must be base64 of 32 bytes (e.g. `openssl rand -base64 32`)');
    return key;
  }
  const file = path.join(stateDir, 'webhook-key');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing) return Buffer.from(existing.trim(), 'base64');
  await mkdir(stateDir, { recursive: true });
  // `wx`: of two processes making it at once, one writes and both read the winner's key.
  await writeFile(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' }).catch(() => {});
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64 parts. */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/** One `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated (two during a rotation's overlap). */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The three Standard Webhooks headers of one delivery. */
export function signedHeaders(secrets: string[], id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader(secrets, id, timestamp, body) };
}
