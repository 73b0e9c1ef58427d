// Monitor digest emails: rendering, a real SMTP exchange with a local receiver, and the signed
// unsubscribe token.
import { createHmac, randomBytes } from 'node:crypto';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderMatchDigest, type DigestLine } from '../../subscriptions/email/digest.ts';
import { createMailer, MailerError, type Mailer } from '../../subscriptions/email/mailer.ts';
import { addressHash, signUnsubscribeToken, verifyUnsubscribeToken } from '../../subscriptions/email/unsubscribeToken.ts';
import { startSmtpServer, type SmtpServer } from '../support/smtpServer.ts';

const from = 'IDS Monitors <monitors@ids.test>';
const to = 'analyst@example.com';
const monitor = { id: 'mon_4fQz9xXk2LmN8pR1sT6uV0wY', name: 'Insider <script>alert(1)</script> & "Co"' };
const items: DigestLine[] = [
  {
    title: 'Form 4: <img src=x onerror=alert(1)> bought 1,000 shares',
    detail: 'Apple Inc. (AAPL)',
    accessionNumber: '0000320193-24-000081',
    citationUrl: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000081/0000320193-24-000081-index.htm',
    filedAt: '2024-05-02',
  },
  {
    title: '8-K item 5.02: officer departure',
    detail: null,
    accessionNumber: '0001045810-24-000112',
    citationUrl: 'https://www.sec.gov/Archives/edgar/data/1045810/000104581024000112/0001045810-24-000112-index.htm?a=1&b=2',
    filedAt: '2024-05-03T12:00:00Z',
  },
  {
    title: '10-Q filed',
    detail: 'Revenue 90,753,000,000 USD',
    accessionNumber: '0000789019-24-000040',
    citationUrl: 'https://www.sec.gov/Archives/edgar/data/789019/000078901924000040/0000789019-24-000040-index.htm',
    filedAt: null,
  },
];
// A real token's length: a long header value must survive folding.
const sampleToken = signUnsubscribeToken(randomBytes(32), { monitorId: monitor.id, address: to });
const oneClickUrl = `https://api.ids.test/v1/monitors/unsubscribe?token=${sampleToken}`;
const unsubscribeUrl = `https://ids.test/unsubscribe?token=${sampleToken}`;

function digest(overrides: Partial<Parameters<typeof renderMatchDigest>[0]> = {}) {
  return renderMatchDigest({ monitor, items, totalMatched: 5, unsubscribeUrl, oneClickUrl, ...overrides });
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('renderMatchDigest', () => {
  it('names the monitor and the count in the subject', () => {
    expect(digest().subject).toBe('[IDS monitor] Insider <script>alert(1)</script> & "Co": 5 new matches');
    expect(digest({ items: items.slice(0, 1), totalMatched: 1 }).subject).toMatch(/: 1 new match$/);
  });

  it('keeps line breaks in data out of the subject and the text lines', () => {
    const rendered = digest({ monitor: { id: monitor.id, name: 'a\r\nBcc: x@evil.test' }, items: [{ ...items[2], title: 'x\n2. forged line' }] });
    expect(rendered.subject).toBe('[IDS monitor] a Bcc: x@evil.test: 5 new matches');
    expect(rendered.text).not.toMatch(/^2\. forged/m);
  });

  it('says how many matches were left out', () => {
    expect(digest().text).toContain('…and 2 more in the monitor.matched event.');
    expect(digest({ totalMatched: 3 }).text).not.toContain('more in the monitor.matched event');
  });

  it('links only http(s) citations', () => {
    const rendered = digest({ items: [{ ...items[0], citationUrl: 'javascript:alert(1)' }, { ...items[1], citationUrl: null, accessionNumber: null }] });
    expect(rendered.html).not.toMatch(/href="javascript:/i);
    expect(rendered.html).toContain('javascript:alert(1)'); // shown, inert
  });

  it('refuses an unsubscribe header URL that is not http(s)', () => {
    expect(() => digest({ oneClickUrl: 'mailto:x@y.z' })).toThrow(/http/);
  });

  it('sets the list headers', () => {
    expect(digest().headers).toEqual({
      'List-Unsubscribe': `<${oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `<${monitor.id}.monitors.ids>`,
      'Auto-Submitted': 'auto-generated',
    });
  });
});

describe('sending a digest over SMTP', () => {
  let smtp: SmtpServer;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = (await createMailer(smtp.url, from))!;
  });
  beforeEach(() => {
    smtp.messages.length = 0;
  });
  afterAll(async () => {
    mailer?.close();
    await smtp?.close();
  });

  it('is off without an SMTP URL', async () => {
    expect(await createMailer(undefined, from)).toBeNull();
    expect(await createMailer('', from)).toBeNull();
  });

  it('delivers both parts with every citation, the list headers and the given Message-ID', async () => {
    const rendered = digest();
    const messageId = '<eml_7hJk2LmN8pR1sT6uV0wYabcd@ids.test>';
    const sent = await mailer.send({ to, ...rendered, messageId });
    expect(sent.messageId).toBe(messageId);

    const [message] = await smtp.waitFor(1);
    expect(message.envelope).toEqual({ from: 'monitors@ids.test', to: [to] });
    expect(message.parsed.from?.value).toEqual([{ address: 'monitors@ids.test', name: 'IDS Monitors' }]);
    expect(message.to).toEqual([to]);
    expect(message.subject).toBe(rendered.subject);
    expect(message.messageId).toBe(messageId);

    const html = message.html;
    for (const item of items) {
      expect(message.text).toContain(item.accessionNumber);
      expect(message.text).toContain(item.citationUrl);
      expect(html).toContain(item.accessionNumber);
      expect(html).toContain(`href="${item.citationUrl!.replace(/&/g, '&amp;')}"`);
    }
    expect(message.text).toContain('Every number cites the filing it came from.');
    expect(message.text).toContain(`Unsubscribe: ${unsubscribeUrl}`);
    expect(html).toContain(`<a href="${unsubscribeUrl}">Unsubscribe</a>`);

    // Long values arrive folded; the receiver unfolds them (RFC 5322 2.2.3): the URL is intact.
    expect(message.headers.get('list-unsubscribe')).toBe(`<${oneClickUrl}>`);
    expect(message.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(message.headers.get('list-id')).toBe(`<${monitor.id}.monitors.ids>`);
    expect(message.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('escapes data in the HTML part', async () => {
    await mailer.send({ to, ...digest() });
    const [message] = await smtp.waitFor(1);
    const html = message.html;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('Insider &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('keeps the Message-ID across a retried send', async () => {
    const messageId = '<eml_retry@ids.test>';
    await mailer.send({ to, ...digest(), messageId });
    await mailer.send({ to, ...digest(), messageId });
    const received = await smtp.waitFor(2);
    expect(received.map((m) => m.messageId)).toEqual([messageId, messageId]);
  });

  it('reports refusals as permanent (5xx) or transient (4xx)', async () => {
    smtp.rejectNext(1, 550, 'mailbox unavailable');
    const bounce = await mailer.send({ to, ...digest() }).catch((err: unknown) => err);
    expect(bounce).toBeInstanceOf(MailerError);
    expect(bounce).toMatchObject({ responseCode: 550, permanent: true });

    smtp.rejectNext(1, 451, 'try again later');
    const deferral = await mailer.send({ to, ...digest() }).catch((err: unknown) => err);
    expect(deferral).toMatchObject({ responseCode: 451, permanent: false });

    await mailer.send({ to, ...digest() });
    expect(await smtp.waitFor(1)).toHaveLength(1);
    expect(smtp.rejected).toBeGreaterThanOrEqual(2);
  });

  it('sends to exactly one address', async () => {
    const err = await mailer.send({ to: `${to}, other@example.com`, ...digest() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EENVELOPE', permanent: true });
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('mailer errors', () => {
  it('leave the password out when the server is unreachable', async () => {
    const mailer = (await createMailer(`smtp://user:s3cret@127.0.0.1:${await closedPort()}`, from))!;
    try {
      const err = await mailer.send({ to, ...digest() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MailerError);
      expect((err as Error).message).toMatch(/ECONNREFUSED/);
      expect(JSON.stringify({ ...(err as object), message: (err as Error).message, stack: (err as Error).stack })).not.toContain('s3cret');
    } finally {
      mailer.close();
    }
  });

  it('leave the password out when the server refuses the login', async () => {
    const smtp = await startSmtpServer({ auth: { user: 'user', pass: 'right-one' } });
    const mailer = (await createMailer(`smtp://user:s3cret%21@127.0.0.1:${smtp.port}`, from))!;
    try {
      const err = await mailer.send({ to, ...digest() }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'EAUTH', responseCode: 535 });
      expect((err as Error).message).not.toMatch(/s3cret|czNjcmV0/);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('authenticates with the URL credentials', async () => {
    const smtp = await startSmtpServer({ auth: { user: 'user', pass: 'p@ss word' } });
    const mailer = (await createMailer(`smtp://user:${encodeURIComponent('p@ss word')}@127.0.0.1:${smtp.port}`, from))!;
    try {
      await mailer.send({ to, ...digest() });
      expect(await smtp.waitFor(1)).toHaveLength(1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

describe('unsubscribe tokens', () => {
  const key = randomBytes(32);
  const claim = { monitorId: monitor.id, address: 'Analyst@Example.com' };
  const token = signUnsubscribeToken(key, claim);

  function forged(payload: unknown, signingKey = key): string {
    const payloadPart = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${payloadPart}.${createHmac('sha256', signingKey).update(`ids-unsubscribe-v1.${payloadPart}`).digest('base64url')}`;
  }

  it('round-trips, URL-safe and compact', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token.length).toBeLessThan(160);
    expect(verifyUnsubscribeToken(key, token)).toEqual({ monitorId: monitor.id, addressHash: addressHash('analyst@example.com') });
    expect(forged({ v: 1, m: monitor.id, a: addressHash(claim.address) })).toBe(token);
  });

  it('hashes addresses case-insensitively, to 16 hex characters', () => {
    expect(addressHash('Analyst@Example.COM')).toBe(addressHash('analyst@example.com'));
    expect(addressHash('analyst@example.com')).toMatch(/^[0-9a-f]{16}$/);
    expect(addressHash('other@example.com')).not.toBe(addressHash('analyst@example.com'));
  });

  it('refuses a tampered payload', () => {
    const [, signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ v: 1, m: 'mon_someoneelse', a: addressHash(claim.address) })).toString('base64url');
    expect(verifyUnsubscribeToken(key, `${payload}.${signature}`)).toBeNull();
  });

  it('refuses a tampered signature, including another spelling of the same bytes', () => {
    const [payload, signature] = token.split('.');
    const flipped = signature.slice(0, -1) + (signature.at(-1) === 'A' ? 'B' : 'A');
    expect(verifyUnsubscribeToken(key, `${payload}.${flipped}`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${payload}.${signature}=`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${payload}.`)).toBeNull();
    expect(verifyUnsubscribeToken(key, `${payload}.${signature}.x`)).toBeNull();
  });

  it('refuses a token from another key', () => {
    expect(verifyUnsubscribeToken(randomBytes(32), token)).toBeNull();
  });

  it('refuses other versions, malformed payloads and oversized tokens even when signed', () => {
    const a = addressHash(claim.address);
    expect(verifyUnsubscribeToken(key, forged({ v: 2, m: monitor.id, a }))).toBeNull();
    expect(verifyUnsubscribeToken(key, forged({ v: 1, m: '', a }))).toBeNull();
    expect(verifyUnsubscribeToken(key, forged({ v: 1, m: monitor.id, a: 'not-a-hash' }))).toBeNull();
    expect(verifyUnsubscribeToken(key, forged(null))).toBeNull();
    expect(verifyUnsubscribeToken(key, forged([1, monitor.id, a]))).toBeNull();
    expect(verifyUnsubscribeToken(key, forged({ v: 1, m: 'mon_' + 'x'.repeat(400), a }))).toBeNull();
    expect(() => signUnsubscribeToken(key, { monitorId: 'mon_' + 'x'.repeat(400), address: to })).toThrow(/too long/);
  });

  it('never throws on, and never verifies, random input', () => {
    const alphabet = fc.constantFrom(...'ABCxyz019-_.=+/ '.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 700 }), fc.string({ unit: alphabet, maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 })), (input) => {
        expect(verifyUnsubscribeToken(key, input)).toBeNull();
      }),
      { numRuns: 2000 },
    );
    for (const input of [undefined, null, 42, {}, ['a.b']]) expect(verifyUnsubscribeToken(key, input as unknown as string)).toBeNull();
  });

  it('refuses any single-character change of a genuine token', () => {
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'AZaz09-_.'.split('')), (index, replacement) => {
        fc.pre(token[index] !== replacement);
        expect(verifyUnsubscribeToken(key, token.slice(0, index) + replacement + token.slice(index + 1))).toBeNull();
      }),
    );
  });
});
