// Outbound email over SMTP (nodemailer), configured by one connection URL such as
// smtp://user:pass@host:587 or smtps://user:pass@host:465.
import type { Transporter } from 'nodemailer';

export interface OutgoingEmail {
  /** one bare address: a digest goes to exactly one recipient */
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** `<id@domain>` (brackets optional): give the same one on every retry so receivers can de-duplicate */
  messageId?: string;
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<{ messageId: string }>;
  close(): void;
}

/** A failed send. The message never holds the URL's password; `permanent` is set for 5xx replies. */
export class MailerError extends Error {
  readonly code: string | undefined;
  readonly responseCode: number | undefined;
  readonly permanent: boolean;
  constructor(message: string, detail: { code?: string; responseCode?: number; permanent?: boolean } = {}) {
    super(message);
    this.name = 'MailerError';
    this.code = detail.code;
    this.responseCode = detail.responseCode;
    this.permanent = detail.permanent ?? false;
  }
}

const timeoutMs = 10_000;
// A plain addr-spec, no display name or list: a comma would otherwise add recipients.
const singleAddress = /^[^\s@,;:<>()"\\[\]]+@[^\s@,;:<>()"\\[\]]+$/;

/** The password of a connection URL in every form an error message could show it in. */
function secretsOf(smtpUrl: string): string[] {
  let raw = '';
  try {
    raw = new URL(smtpUrl).password;
  } catch {
    raw = /^[a-z]+:\/\/[^:@/]*:([^@/]*)@/i.exec(smtpUrl)?.[1] ?? '';
  }
  if (!raw) return [];
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {}
  return [...new Set([raw, decoded, Buffer.from(decoded).toString('base64')])].sort((x, y) => y.length - x.length);
}

/**
 * A new Error rather than nodemailer's own: that one may carry the server's reply, the failed
 * command, or (for a malformed URL, Node's TypeError) the whole URL in `input`.
 */
function sanitized(err: unknown, secrets: string[]): MailerError {
  const source = err as { message?: unknown; code?: unknown; responseCode?: unknown; permanent?: unknown } | null;
  let message = typeof source?.message === 'string' ? source.message : String(err);
  for (const secret of secrets) message = message.split(secret).join('***');
  message = message.replace(/([a-z]+:\/\/[^:@/\s]*:)[^@/\s]*@/gi, '$1***@');
  return new MailerError(`email not sent: ${message}`, {
    code: typeof source?.code === 'string' ? source.code : undefined,
    responseCode: typeof source?.responseCode === 'number' ? source.responseCode : undefined,
    permanent: source?.permanent === true,
  });
}

/** null when no SMTP URL is configured (email delivery off; the SMTP library is then never read). */
export async function createMailer(smtpUrl: string | undefined, from: string): Promise<Mailer | null> {
  if (!smtpUrl) return null;
  const secrets = secretsOf(smtpUrl);
  const { default: nodemailer } = await import('nodemailer');
  let transport: Transporter;
  try {
    // Pooled: a digest run sends many messages, and reusing a connection skips the handshake and
    // AUTH each time. Two connections stay within the concurrency limits of hosted relays.
    transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  } catch (err) {
    throw sanitized(err, secrets);
  }
  return {
    async send(message) {
      if (!singleAddress.test(message.to)) throw new MailerError('email not sent: recipient is not a single address', { code: 'EENVELOPE', permanent: true });
      try {
        const info = await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
          ...(message.messageId ? { messageId: message.messageId } : {}),
        });
        return { messageId: info.messageId };
      } catch (err) {
        throw sanitized(err, secrets);
      }
    },
    close() {
      transport.close();
    },
  };
}
