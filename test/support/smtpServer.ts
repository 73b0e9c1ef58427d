// A local SMTP receiver for tests: plaintext on 127.0.0.1, any port, every message parsed with
// mailparser and kept. It can refuse the next N messages, to exercise retries and bounces.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One received message, flattened for assertions; `parsed` has everything mailparser found. */
export interface ReceivedMessage {
  envelope: { from: string; to: string[] };
  /** addresses of the From and To headers */
  from: string | undefined;
  to: string[];
  subject: string | undefined;
  messageId: string | undefined;
  text: string;
  html: string;
  /**
   * Header values as sent (unfolded, not decoded), by lower-cased name, first occurrence. Unlike
   * parsed.headers, which folds every List-* header into one `list` object.
   */
  headers: Map<string, string>;
  /** the message exactly as it arrived */
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtpOptions {
  /** require AUTH with these credentials (plaintext AUTH is allowed: no TLS here) */
  auth?: { user: string; pass: string };
}

export interface SmtpServer {
  /** smtp://127.0.0.1:PORT */
  url: string;
  port: number;
  messages: ReceivedMessage[];
  /** refused messages, counted */
  rejected: number;
  /** refuse the next `count` messages at the end of DATA with this reply code (4xx deferral, 5xx bounce) */
  rejectNext(count: number, code?: number, text?: string): void;
  /** resolves once `count` messages have arrived */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  close(): Promise<void>;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((entry) => entry.address ?? ''));
}

function received(parsed: ParsedMail, raw: string, envelope: ReceivedMessage['envelope']): ReceivedMessage {
  const headers = new Map<string, string>();
  for (const { key, line } of parsed.headerLines) {
    if (!headers.has(key)) headers.set(key, line.slice(line.indexOf(':') + 1).replace(/\r?\n(?=[ \t])/g, '').trim());
  }
  return {
    envelope,
    from: addresses(parsed.from)[0],
    to: addresses(parsed.to),
    subject: parsed.subject,
    messageId: parsed.messageId,
    text: parsed.text ?? '',
    html: parsed.html || '',
    headers,
    raw,
    parsed,
  };
}

export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<SmtpServer> {
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  let rejection = { remaining: 0, code: 550, text: 'rejected by test server' };
  let rejected = 0;

  const server = new SMTPServer({
    logger: false,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    // A pooled client may still hold a connection at close(): don't wait the default 30 s for it.
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      if (ok) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', async () => {
        if (rejection.remaining > 0) {
          rejection.remaining--;
          rejected++;
          return callback(Object.assign(new Error(rejection.text), { responseCode: rejection.code }));
        }
        const raw = Buffer.concat(chunks);
        try {
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          };
          messages.push(received(await simpleParser(raw), raw.toString('utf8'), envelope));
          for (const wake of waiters) wake();
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  // Client resets and the like are emitted here; without a listener they would crash the run.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get rejected() {
      return rejected;
    },
    rejectNext(count, code = 550, text = 'rejected by test server') {
      rejection = { remaining: count, code, text };
    },
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(messages.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} messages within ${timeoutMs} ms, got ${messages.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
