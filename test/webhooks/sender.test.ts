// The webhook sender against real HTTP servers on 127.0.0.1. Hosts other than the local server
// never see traffic: their names resolve through injected resolvers, and refused URLs must not
// open a connection at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostsFromEnv, checkWebhookUrl, isForbiddenAddress, sendWebhook, UrlRefused } from '../../subscriptions/webhooks/sender.ts';

const local = new Set(['127.0.0.1']);
const none = new Set<string>();
const resolvesTo = (...addresses: string[]) => async () => addresses;

describe('allowedHostsFromEnv', () => {
  it('trims, lowercases and drops empty entries', () => {
    expect(allowedHostsFromEnv(' LocalHost, 127.0.0.1,,[::1] ,')).toEqual(new Set(['localhost', '127.0.0.1', '::1']));
    expect(allowedHostsFromEnv(undefined)).toEqual(new Set());
  });
});

describe('isForbiddenAddress', () => {
  const forbidden = [
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::7f00:1',
    'not-an-ip', '', 'localhost', '[::1]',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

  it.each(forbidden)('forbids %s', (address) => expect(isForbiddenAddress(address)).toBe(true));
  it.each(allowed)('allows %s', (address) => expect(isForbiddenAddress(address)).toBe(false));

  // Every block of the IANA IPv4 and IPv6 special-purpose registries, first and last address.
  const specialV4 = [
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
    '192.0.2.0/24', '192.31.196.0/24', '192.52.193.0/24', '192.88.99.0/24', '192.168.0.0/16', '192.175.48.0/24',
    '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4', '255.255.255.255/32',
  ];
  const specialV6 = [
    '::1/128', '::/128', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '100:0:0:1::/64',
    '2001::/23', '2001::/32', '2001:1::1/128', '2001:2::/48', '2001:3::/32', '2001:4:112::/48', '2001:10::/28', '2001:20::/28',
    '2001:30::/28', '2001:db8::/32', '2002::/16', '2620:4f:8000::/48', '3fff::/20', '5f00::/16', 'fc00::/7', 'fe80::/10',
    'fec0::/10', 'ff00::/8',
  ];
  const ends = (cidr: string) => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    const bytes = network.toByteArray();
    const last = bytes.map((byte, i) => byte | (0xff >> Math.max(0, Math.min(8, bits - i * 8))) & 0xff);
    return [ipaddr.fromByteArray(bytes).toString(), ipaddr.fromByteArray(last).toString()];
  };
  it.each([...specialV4, ...specialV6].flatMap((cidr) => ends(cidr).map((address) => [address, cidr])))('forbids %s (%s)', (address) =>
    expect(isForbiddenAddress(address)).toBe(true),
  );

  it('judges IPv4-mapped and NAT64 addresses by the IPv4 address they embed', () => {
    for (const v4 of ['198.18.0.1', '192.0.0.170', '240.0.0.1', '203.0.113.9', '100.64.0.1']) {
      expect(isForbiddenAddress(`::ffff:${v4}`), `::ffff:${v4}`).toBe(true);
      expect(isForbiddenAddress(`64:ff9b::${v4}`), `64:ff9b::${v4}`).toBe(true);
    }
    expect(isForbiddenAddress('::ffff:93.184.216.34')).toBe(false);
    expect(isForbiddenAddress('64:ff9b::93.184.216.34')).toBe(false);
  });

  it('refuses tunnels and deprecated IPv4-embedding forms whatever IPv4 address they carry', () => {
    // 6to4 and Teredo reach their embedded host through relays; IPv4-compatible and translated
    // forms lie outside the global unicast space.
    for (const address of ['2002:7f00:1::1', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::8.8.8.8', '::808:808', '::ffff:0:808:808']) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });
});

describe('checkWebhookUrl', () => {
  const refusal = (url: string, options: Parameters<typeof checkWebhookUrl>[1]) =>
    checkWebhookUrl(url, options).then(
      () => expect.unreachable(`${url} was accepted`),
      (err: unknown) => {
        expect(err).toBeInstanceOf(UrlRefused);
        return err as UrlRefused;
      },
    );
  const neverCalled = async (): Promise<string[]> => expect.unreachable('resolver called');

  it('refuses plain http for a public host', async () => {
    expect((await refusal('http://hooks.example.com/', { allowedHosts: none, resolve: resolvesTo('93.184.216.34') })).reason).toBe('scheme');
  });

  it('refuses credentials without repeating them', async () => {
    const err = await refusal('https://alice42:hunter2@hooks.example.com/', { allowedHosts: none, resolve: resolvesTo('93.184.216.34') });
    expect(err.reason).toBe('credentials');
    expect(err.message).toContain('hooks.example.com');
    expect(err.message).not.toMatch(/hunter2|alice42/);
  });

  it('refuses a host resolving to a private address', async () => {
    const err = await refusal('https://internal.example.com/', { allowedHosts: none, resolve: resolvesTo('10.0.0.1') });
    expect(err.reason).toBe('address');
    expect(err.message).toContain('internal.example.com');
    expect(err.message).not.toContain('10.0.0.1');
  });

  it('refuses a host when any one of its addresses is private', async () => {
    const err = await refusal('https://mixed.example.com/', { allowedHosts: none, resolve: resolvesTo('93.184.216.34', '192.168.0.5') });
    expect(err.reason).toBe('address');
  });

  it('checks IP literals directly, without DNS', async () => {
    expect((await refusal('https://[::1]/hook', { allowedHosts: none, resolve: neverCalled })).reason).toBe('address');
    expect((await refusal('https://[::ffff:169.254.169.254]/', { allowedHosts: none, resolve: neverCalled })).reason).toBe('address');
    expect((await refusal('https://169.254.169.254/latest/meta-data/', { allowedHosts: none, resolve: neverCalled })).reason).toBe('address');
    // the URL parser normalises shorthand IPv4 forms before the check sees them
    expect((await refusal('https://0x7f.1/', { allowedHosts: none, resolve: neverCalled })).reason).toBe('address');
  });

  it('refuses http://169.254.169.254/', async () => {
    await refusal('http://169.254.169.254/', { allowedHosts: none, resolve: neverCalled });
  });

  it('refuses malformed, non-http and unresolvable URLs', async () => {
    expect((await refusal('not a url', { allowedHosts: none })).reason).toBe('malformed');
    expect((await refusal('ftp://files.example.com/', { allowedHosts: none })).reason).toBe('scheme');
    expect((await refusal('https://nowhere.example.com/', { allowedHosts: none, resolve: resolvesTo() })).reason).toBe('unresolvable');
    const failing = async (): Promise<string[]> => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    expect((await refusal('https://nowhere.example.com/', { allowedHosts: none, resolve: failing })).reason).toBe('unresolvable');
    expect((await refusal('https://hooks.example.com:0/', { allowedHosts: none, resolve: resolvesTo('93.184.216.34') })).reason).toBe('port');
  });

  it('refuses a name that resolves to loopback (DNS rebinding)', async () => {
    const err = await refusal('https://rebind.test/hook', { allowedHosts: none, resolve: resolvesTo('127.0.0.1') });
    expect(err.reason).toBe('address');
  });

  it('accepts an https host with public addresses', async () => {
    const checked = await checkWebhookUrl('https://hooks.example.com/in?x=1', { allowedHosts: none, resolve: resolvesTo('93.184.216.34') });
    expect(checked.url.hostname).toBe('hooks.example.com');
    expect(checked.addresses).toEqual(['93.184.216.34']);
  });

  it('accepts plain http to an allowed local host', async () => {
    const checked = await checkWebhookUrl('http://127.0.0.1:8080/hook', { allowedHosts: local, resolve: neverCalled });
    expect(checked.addresses).toEqual(['127.0.0.1']);
  });
});

describe('sendWebhook', () => {
  interface Received {
    path: string;
    headers: http.IncomingHttpHeaders;
    body: string;
  }
  const received: Received[] = [];
  let connections = 0;
  let port = 0;
  let closedPort = 0;
  const chunk = Buffer.alloc(64 * 1024, 'a');

  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (body += part));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      switch (req.url) {
        case '/redirect':
          res.writeHead(302, { location: '/target' }).end();
          break;
        case '/slow': {
          const timer = setTimeout(() => res.end('late'), 2000);
          res.on('close', () => clearTimeout(timer));
          break;
        }
        case '/big': // 5 KB whose 1024th byte falls inside a two-byte character
          res.end('a' + 'é'.repeat(2560));
          break;
        case '/endless': {
          const pump = () => {
            while (!res.destroyed && res.write(chunk));
          };
          res.on('drain', pump);
          pump();
          break;
        }
        case '/busy':
          res.writeHead(503, { 'Retry-After': '7' }).end('busy');
          break;
        default:
          res.writeHead(200, { 'X-Receiver': 'ok' }).end('accepted');
      }
    });
  });
  server.on('connection', () => connections++);

  const listen = (target: http.Server) =>
    new Promise<number>((resolve) => target.listen(0, '127.0.0.1', () => resolve((target.address() as AddressInfo).port)));
  const close = (target: http.Server) => new Promise<void>((resolve) => target.close(() => resolve()));

  beforeAll(async () => {
    port = await listen(server);
    const probe = http.createServer();
    closedPort = await listen(probe);
    await close(probe);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await close(server);
  });

  const send = (path: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
    sendWebhook({ url: `http://127.0.0.1:${port}${path}`, headers: {}, body: '{}', timeoutMs: 2000, allowedHosts: local, ...extra });

  it('delivers the body and headers and returns the status', async () => {
    const body = JSON.stringify({ type: 'filing.created', id: 'evt_1' });
    const result = await send('/hook', { body, headers: { 'X-IDS-Signature': 'sig' } });
    expect(result).toMatchObject({ status: 200, bodyExcerpt: 'accepted', error: null });
    expect(result.headers['x-receiver']).toBe('ok');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const seen = received.at(-1)!;
    expect(seen).toMatchObject({ path: '/hook', body });
    expect(seen.headers).toMatchObject({
      'x-ids-signature': 'sig',
      'content-type': 'application/json',
      'user-agent': 'InvestorDataService-Webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
      host: `127.0.0.1:${port}`,
    });
  });

  it("keeps a caller's content-type and user-agent, whatever their case", async () => {
    await send('/hook', { headers: { 'Content-Type': 'application/cloudevents+json', 'User-Agent': 'custom' } });
    expect(received.at(-1)!.headers).toMatchObject({ 'content-type': 'application/cloudevents+json', 'user-agent': 'custom' });
  });

  it('reaches an allowed host by name (localhost)', async () => {
    const result = await send('/by-name', { url: `http://localhost:${port}/by-name`, allowedHosts: new Set(['localhost']) });
    expect(result.status).toBe(200);
    expect(received.at(-1)!.headers.host).toBe(`localhost:${port}`);
  });

  it('connects to the resolved address and keeps the host name in Host', async () => {
    let lookups = 0;
    const resolve = async () => (lookups++, ['127.0.0.1']);
    // pinned.test exists in no DNS: reaching the server proves the socket used the checked address
    const result = await send('/pinned', { url: `http://pinned.test:${port}/pinned`, allowedHosts: new Set(['pinned.test']), resolve });
    expect(result).toMatchObject({ status: 200, error: null });
    expect(lookups).toBe(1);
    expect(received.at(-1)!.headers.host).toBe(`pinned.test:${port}`);
  });

  it('returns a redirect without following it', async () => {
    const result = await send('/redirect');
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe('/target');
    expect(received.some((seen) => seen.path === '/target')).toBe(false);
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    const result = await send('/slow', { timeoutMs: 200 });
    expect(result).toMatchObject({ status: null, error: 'timeout after 200 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('counts name resolution against the deadline', async () => {
    const hanging = () => new Promise<string[]>(() => {});
    const result = await send('/', { url: 'https://slow-dns.example.com/', allowedHosts: none, resolve: hanging, timeoutMs: 100 });
    expect(result).toMatchObject({ status: null, error: 'timeout after 100 ms' });
  });

  it('keeps at most 1024 bytes of the response body, on a character boundary', async () => {
    const result = await send('/big');
    expect(result.status).toBe(200);
    expect(Buffer.byteLength(result.bodyExcerpt)).toBeLessThanOrEqual(1024);
    expect(result.bodyExcerpt).toBe('a' + 'é'.repeat(511));
  });

  it('stops reading a body that never ends', async () => {
    const result = await send('/endless', { timeoutMs: 3000 });
    expect(result).toMatchObject({ status: 200, error: null });
    expect(result.bodyExcerpt).toBe('a'.repeat(1024));
  });

  it('returns Retry-After from a 503', async () => {
    const result = await send('/busy');
    expect(result).toMatchObject({ status: 503, bodyExcerpt: 'busy', error: null });
    expect(result.headers['retry-after']).toBe('7');
  });

  it('refuses a forbidden URL without opening a connection', async () => {
    const before = connections;
    const privateTarget = await sendWebhook({ url: 'http://10.0.0.1/', headers: {}, body: '{}', timeoutMs: 2000, allowedHosts: none });
    expect(privateTarget.status).toBeNull();
    expect(privateTarget.error).toMatch(/^refused/);
    // the local server itself, once 127.0.0.1 is no longer allowed
    const loopback = await send('/hook', { allowedHosts: none });
    expect(loopback.error).toMatch(/^refused/);
    expect(connections).toBe(before);
  });

  it('refuses a name that resolves to loopback (DNS rebinding) without connecting', async () => {
    const before = connections;
    const result = await send('/hook', { url: `https://rebind.test:${port}/hook`, allowedHosts: none, resolve: resolvesTo('127.0.0.1') });
    expect(result).toMatchObject({ status: null });
    expect(result.error).toMatch(/^refused: rebind\.test resolves to a private or reserved address/);
    expect(connections).toBe(before);
  });

  it('reports a refused connection', async () => {
    const result = await sendWebhook({ url: `http://127.0.0.1:${closedPort}/`, headers: {}, body: '{}', timeoutMs: 2000, allowedHosts: local });
    expect(result).toMatchObject({ status: null, error: 'ECONNREFUSED' });
  });
});
