// Outbound HTTP for webhook deliveries. Receiver URLs are chosen by customers, so every request
// is guarded against server-side request forgery: the host must resolve only to public
// addresses, and the connection goes to exactly the address that was checked.
import { inSpan, SpanKind } from '../../core/tracing.ts';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

const EXCERPT_BYTES = 1024;
const USER_AGENT = 'InvestorDataService-Webhooks/1';

/** Parses IDS_WEBHOOK_ALLOWED_HOSTS: hosts exempt from the address check and allowed plain http (local receivers). */
export function allowedHostsFromEnv(value: string | undefined): Set<string> {
  const hosts = (value ?? '').split(',').map((host) => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  return new Set(hosts.filter(Boolean));
}

// The address guard follows the IANA special-purpose address registries (IPv4 and IPv6) through
// ipaddr.js, whose range() names every block they list. A webhook may only reach plain unicast:
// every special-purpose block is refused, even the few the registries mark globally reachable
// (anycast relays, AS112 sinks, AMT), since none of them is a webhook receiver. That includes
// 0.0.0.0/8 (0.0.0.0 reaches the local host) and link-local 169.254.0.0/16 (cloud metadata).
const unicast = 'unicast';

function forbiddenV4(address: ipaddr.IPv4): boolean {
  return address.range() !== unicast;
}

// IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses reach the IPv4 address in their
// last 32 bits, so they are judged by it.
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
// The only IPv6 space allocated for global unicast (IANA IPv6 address space); the rest is reserved
// by the IETF or special: IPv4-compatible ::/96, the translated ::ffff:0:0:0/96, the dummy prefix
// 100:0:0:1::/64, unique-local, link-local, multicast.
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');

function forbiddenV6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress() || address.match(nat64)) return forbiddenV4(new ipaddr.IPv4(address.toByteArray().slice(12)));
  // Every other special block is refused whole: the local-use NAT64 prefix 64:ff9b:1::/48, 6to4
  // 2002::/16 and Teredo 2001::/32 (tunnels whose relays reach an embedded IPv4 host, private or
  // not), documentation, benchmarking, ORCHID, segment routing and the rest of 2001::/23.
  return address.range() !== unicast || !address.match(globalUnicast);
}

/** True for addresses a webhook must never reach; anything that is not an IP address counts as forbidden. */
export function isForbiddenAddress(address: string): boolean {
  const ip = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) selects an interface, not a host
  const family = net.isIP(ip);
  if (family === 4) return forbiddenV4(ipaddr.IPv4.parse(ip));
  if (family !== 6) return true;
  // The URL parser canonicalises IPv6 to hex groups only: ipaddr.js would read the dotted tail of
  // an IPv4-compatible ::8.8.8.8 as IPv4-mapped, and so as the public 8.8.8.8.
  const canonical = new URL(`http://[${ip}]`).hostname.slice(1, -1);
  return forbiddenV6(ipaddr.IPv6.parse(canonical));
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

/** the receiver's host only: a webhook URL's path or query may hold the customer's own token */
function post(url: URL, addresses: string[], input: SendInput, signal: AbortSignal): Promise<Response> {
  return inSpan(`POST ${url.host}`, { 'http.request.method': 'POST', 'server.address': url.host }, () => postOnce(url, addresses, input, signal), SpanKind.CLIENT);
}

function postOnce(url: URL, addresses: string[], input: SendInput, signal: AbortSignal): Promise<Response> {
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
