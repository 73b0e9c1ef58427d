// Outbound HTTP for webhook deliveries. Receiver URLs are chosen by customers, so every request
// is guarded against server-side request forgery: the host must resolve only to public
// addresses, and the connection goes to exactly the address that was checked.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const EXCERPT_BYTES = 1024;
const USER_AGENT = 'InvestorDataService-Webhooks/1';

/** Parses IDS_WEBHOOK_ALLOWED_HOSTS: hosts exempt from the address check and allowed plain http (local receivers). */
export function allowedHostsFromEnv(value: string | undefined): Set<string> {
  const hosts = (value ?? '').split(',').map((host) => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  return new Set(hosts.filter(Boolean));
}

function blockList(type: 'ipv4' | 'ipv6', subnets: [string, number][]): net.BlockList {
  const list = new net.BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
  return list;
}

const forbiddenV4 = blockList('ipv4', [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including cloud metadata at 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.168.0.0', 16], // private
  ['224.0.0.0', 4], // multicast
  ['255.255.255.255', 32], // broadcast
]);

const forbiddenV6 = blockList('ipv6', [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fe80::', 10], // link-local
  ['fc00::', 7], // unique-local
  ['ff00::', 8], // multicast
]);

// IPv6 forms whose last 32 bits are an IPv4 address that the connection actually reaches.
const embedsV4 = blockList('ipv6', [
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::', 96], // IPv4-compatible (deprecated, still routed by some stacks)
  ['64:ff9b::', 96], // NAT64 well-known prefix
]);

function embeddedV4(ipv6: string): string {
  // The URL parser canonicalises IPv6 to hex groups only (no dotted tail), so the last two groups
  // are the low 32 bits; an empty group there stands for zeros compressed by '::'.
  const groups = new URL(`http://[${ipv6}]`).hostname.slice(1, -1).split(':').slice(-2);
  const [high, low] = groups.map((group) => parseInt(group || '0', 16));
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True for addresses a webhook must never reach; anything that is not an IP address counts as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) selects an interface, not a host
  const family = net.isIP(ip);
  if (family === 4) return forbiddenV4.check(ip, 'ipv4');
  if (family !== 6) return true;
  if (forbiddenV6.check(ip, 'ipv6')) return true;
  return embedsV4.check(ip, 'ipv6') && forbiddenV4.check(embeddedV4(ip), 'ipv4');
}

export type UrlRefusedReason = 'malformed' | 'scheme' | 'credentials' | 'port' | 'unresolvable' | 'address';

/** A webhook URL we will not call. The message is safe to show the client: it names the host, never credentials or addresses. */
export class UrlRefused extends Error {
  constructor(readonly reason: UrlRefusedReason, message: string) {
    super(message);
    this.name = 'UrlRefused';
  }
}

export type Resolver = (host: string) => Promise<string[]>;

export interface CheckOptions {
  allowedHosts: Set<string>;
  /** host name to IP addresses; tests inject one, production uses the system resolver */
  resolve?: Resolver;
}

async function systemResolve(host: string): Promise<string[]> {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/**
 * Validates a webhook URL, at endpoint creation and again before each delivery (DNS may have
 * changed). Returns the addresses to connect to, in resolver order; throws UrlRefused.
 */
export async function checkWebhookUrl(url: string, options: CheckOptions): Promise<{ url: URL; addresses: string[] }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UrlRefused('malformed', 'webhook URL is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new UrlRefused('scheme', 'webhook URL must use https');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  // Credentials in the URL would travel to the receiver and into our logs and delivery records.
  if (parsed.username || parsed.password) throw new UrlRefused('credentials', `webhook URL for ${host} must not contain a username or password`);
  const allowed = options.allowedHosts.has(host);
  if (parsed.protocol === 'http:' && !allowed) throw new UrlRefused('scheme', `webhook URL for ${host} must use https`);
  if (parsed.port === '0') throw new UrlRefused('port', `webhook URL for ${host} has no usable port`);

  // Resolve even allowed hosts, so a delivery always connects to the addresses returned here.
  let addresses: string[] = [host];
  if (!net.isIP(host)) {
    addresses = await (options.resolve ?? systemResolve)(host).catch(() => []);
    if (addresses.length === 0) throw new UrlRefused('unresolvable', `cannot resolve ${host}`);
  }
  // Any forbidden address refuses the host: connection attempts may fall through to it.
  if (!allowed && addresses.some(isForbiddenAddress)) {
    throw new UrlRefused('address', `${host} resolves to a private or reserved address`);
  }
  return { url: parsed, addresses };
}

export interface SendResult {
  status: number | null;
  headers: Record<string, string>;
  bodyExcerpt: string;
  durationMs: number;
  error: string | null;
}

export interface SendInput extends CheckOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** deadline for the whole delivery: resolution, connect, response and body */
  timeoutMs: number;
}

// Answers the socket's DNS lookup with the checked addresses, so a rebinding DNS server cannot
// swap in a private address between the check and the connect. Host header and TLS servername
// still come from the URL's host name.
function pinnedLookup(addresses: string[]): net.LookupFunction {
  const entries = addresses.map((address) => ({ address, family: net.isIP(address) }));
  return (_host, options, callback) => {
    // With autoSelectFamily (Node 20's default) the socket asks for all addresses and tries them in turn.
    if (options.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  };
}

type Response = Pick<SendResult, 'status' | 'headers' | 'bodyExcerpt'>;

function post(url: URL, addresses: string[], input: SendInput, signal: AbortSignal): Promise<Response> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  // http.request applies these with setHeader, which ignores case: a caller's Content-Type replaces ours.
  const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...input.headers };
  return new Promise((resolve, reject) => {
    // agent: false gives each delivery its own connection, made through the pinned lookup.
    const req = request(url, { method: 'POST', headers, signal, agent: false, lookup: pinnedLookup(addresses) }, (res) => {
      let excerpt = Buffer.alloc(0);
      const finish = () => {
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        // stream: true holds back a multi-byte character cut off at the byte limit
        const bodyExcerpt = new TextDecoder().decode(excerpt, { stream: true });
        resolve({ status: res.statusCode ?? null, headers: responseHeaders, bodyExcerpt });
        res.destroy(); // the rest of a long body is never read
      };
      res.on('data', (chunk: Buffer) => {
        excerpt = Buffer.concat([excerpt, chunk]).subarray(0, EXCERPT_BYTES);
        if (excerpt.length === EXCERPT_BYTES) finish();
      });
      res.on('end', finish);
      res.on('error', reject); // no-op once finished
    });
    req.on('error', reject);
    req.end(input.body);
  });
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}

/**
 * POSTs one webhook delivery. Never throws: a refused URL, a network failure or a timeout comes
 * back as status null with an error. Redirects are not followed (a 3xx is returned as is).
 */
export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), input.timeoutMs);
  try {
    const { url, addresses } = await untilAborted(checkWebhookUrl(input.url, input), deadline.signal);
    const response = await post(url, addresses, input, deadline.signal);
    return { ...response, durationMs: Math.round(performance.now() - started), error: null };
  } catch (err) {
    let error: string;
    if (err instanceof UrlRefused) error = `refused: ${err.message}`;
    else if (deadline.signal.aborted) error = `timeout after ${input.timeoutMs} ms`;
    else if (err instanceof Error) error = (err as NodeJS.ErrnoException).code ?? err.message;
    else error = String(err);
    return { status: null, headers: {}, bodyExcerpt: '', durationMs: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}
