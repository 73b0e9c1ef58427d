// Monitor matches by email: a digest written with its monitor.matched event (dispatch.ts) and
// sent by the worker over SMTP, retried on failure with the same Message-ID. Every digest
// carries a signed link that turns the monitor's email delivery off (catalogue/routes/delivery.ts).
import type { Monitor, MonitorEmail, Prisma } from '../../prisma/generated/client/client.ts';
import { newId } from '../../core/ids.ts';
import { renderMatchDigest, type DigestLine } from '../../subscriptions/email/digest.ts';
import { MailerError } from '../../subscriptions/email/mailer.ts';
import { addressHash, signUnsubscribeToken, verifyUnsubscribeToken } from '../../subscriptions/email/unsubscribeToken.ts';
import { ApiError } from '../../core/errors.ts';
import type { Services } from '../context.ts';

/** Waits before the attempts after a failed one: 1 min, 5 min, 30 min, 2 h, 6 h; then the email is failed. */
export const emailRetrySchedule = [60, 300, 1800, 7200, 21_600].map((s) => s * 1000);
const leaseMs = 60_000;
const sendBatch = 10;
/** lines listed in one digest; the rest are counted */
const linesPerDigest = 25;

export function unsubscribeUrl(services: Pick<Services, 'config' | 'email'>, monitor: Pick<Monitor, 'id' | 'emailAddress'>): string {
  const token = signUnsubscribeToken(services.email.unsubscribeKey, { monitorId: monitor.id, address: monitor.emailAddress! });
  return `${services.config.publicUrl}/v1/delivery/unsubscribe?token=${token}`;
}

/** One line of the digest per matched item, whatever read it came from: what it is, and the filing it cites. */
export function digestLine(item: Record<string, unknown>): DigestLine {
  const str = (key: string) => (typeof item[key] === 'string' ? (item[key] as string) : null);
  const who = str('companyName') ?? (str('cik') ? `CIK ${str('cik')}` : 'A company');
  let title: string;
  let detail: string | null = null;
  if (item.value !== undefined && str('periodEnd')) {
    title = `${str('tag') ?? 'Fact'}: ${str('value')} ${str('unit') ?? ''}`.trim();
    detail = `period ending ${str('periodEnd')}${str('form') ? `, reported in ${str('form')}` : ''}`;
  } else if (item.object === 'filing') {
    title = `${who} filed ${str('form')}`;
    detail = str('primaryDocDescription') ?? (Array.isArray(item.items) && item.items.length ? `items ${(item.items as string[]).join(', ')}` : null);
  } else {
    title = `${who}: ${str('formType') ?? str('form') ?? String(item.object ?? 'record').replace(/_/g, ' ')}`;
    detail = str('item') ? `item ${str('item')}` : null;
  }
  return { title, detail, accessionNumber: str('accessionNumber'), citationUrl: str('citationUrl'), filedAt: str('filedAt') };
}

export function digestEmail(services: Pick<Services, 'config' | 'email'>, monitor: Monitor, eventId: string, items: Record<string, unknown>[]): Prisma.MonitorEmailUncheckedCreateInput {
  const link = unsubscribeUrl(services, monitor);
  const rendered = renderMatchDigest({
    monitor: { id: monitor.id, name: monitor.name },
    items: items.slice(0, linesPerDigest).map(digestLine),
    totalMatched: items.length,
    unsubscribeUrl: link,
    oneClickUrl: link,
  });
  return { id: newId('eml'), orgId: monitor.orgId, monitorId: monitor.id, eventId, address: monitor.emailAddress!, subject: rendered.subject, text: rendered.text, html: rendered.html, headers: rendered.headers };
}

/** Sends the digests that are due (a lease, taken FOR UPDATE SKIP LOCKED, as webhook attempts are); returns how many it tried. */
export async function deliverEmails(services: Services): Promise<number> {
  const mailer = services.email.mailer;
  if (!mailer) return 0;
  const claimed = await services.prisma.$queryRaw<MonitorEmail[]>`
    UPDATE "MonitorEmail" SET "lockedUntil" = (now() AT TIME ZONE 'UTC') + ${`${leaseMs} milliseconds`}::interval
    WHERE "id" IN (
      SELECT "id" FROM "MonitorEmail"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= (now() AT TIME ZONE 'UTC') AND ("lockedUntil" IS NULL OR "lockedUntil" < (now() AT TIME ZONE 'UTC'))
      ORDER BY "nextAttemptAt" LIMIT ${sendBatch} FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  const host = new URL(services.config.publicUrl).hostname || 'localhost';
  await Promise.all(
    claimed.map(async (email) => {
      try {
        await mailer.send({ to: email.address, subject: email.subject, text: email.text, html: email.html, headers: email.headers as Record<string, string>, messageId: `<${email.id}@${host}>` });
        await services.prisma.monitorEmail.update({ where: { id: email.id }, data: { status: 'sent', sentAt: new Date(), attempts: email.attempts + 1, lockedUntil: null, error: null } });
      } catch (error) {
        const attempts = email.attempts + 1;
        // a refusal (5xx: no such mailbox, rejected) will not change on retry
        const wait = error instanceof MailerError && error.permanent ? undefined : emailRetrySchedule[attempts - 1];
        const reason = (error as Error).message.slice(0, 500);
        services.logger.warn({ emailId: email.id, monitorId: email.monitorId, attempts, err: reason }, 'monitor email not sent');
        await services.prisma.monitorEmail.update({
          where: { id: email.id },
          data: wait === undefined ? { status: 'failed', attempts, error: reason, lockedUntil: null } : { attempts, error: reason, lockedUntil: null, nextAttemptAt: new Date(Date.now() + wait * services.webhooks.retryScale) },
        });
      }
    }),
  );
  return claimed.length;
}

export interface Unsubscribed {
  monitorId: string;
  monitorName: string;
  /** the address, masked (the page is public) */
  address: string;
  unsubscribedAt: Date;
  /** the link had been used before, or the monitor no longer emails that address: nothing changed */
  alreadyUnsubscribed: boolean;
}

const masked = (address: string) => address.replace(/^(.)[^@]*(@.*)$/, '$1…$2');

/**
 * The signed link of a digest: turns that monitor's email delivery off, once; the same link again
 * answers the same. A link for an address the monitor no longer emails changes nothing.
 */
export async function unsubscribe(ctx: Pick<Services, 'prisma' | 'email'>, token: string): Promise<Unsubscribed> {
  const claim = verifyUnsubscribeToken(ctx.email.unsubscribeKey, token);
  const monitor = claim && (await ctx.prisma.monitor.findUnique({ where: { id: claim.monitorId } }));
  if (!claim || !monitor) throw new ApiError('unsubscribe_link_invalid', 'This unsubscribe link is not valid: it may have been cut short or altered. Use the link of the email exactly as it arrived.');
  const current = monitor.deliveryType === 'email' && monitor.emailAddress && addressHash(monitor.emailAddress) === claim.addressHash;
  const base = { monitorId: monitor.id, monitorName: monitor.name };
  if (!current) return { ...base, address: '(an address this monitor no longer emails)', unsubscribedAt: monitor.emailOptedOutAt ?? monitor.updatedAt, alreadyUnsubscribed: true };
  if (monitor.emailOptedOutAt) return { ...base, address: masked(monitor.emailAddress!), unsubscribedAt: monitor.emailOptedOutAt, alreadyUnsubscribed: true };
  // only the first use sets the time: a concurrent second click finds it set and changes nothing
  const now = new Date();
  const { count } = await ctx.prisma.monitor.updateMany({ where: { id: monitor.id, emailOptedOutAt: null, emailAddress: monitor.emailAddress }, data: { emailOptedOutAt: now } });
  const saved = count ? now : ((await ctx.prisma.monitor.findUnique({ where: { id: monitor.id } }))?.emailOptedOutAt ?? now);
  return { ...base, address: masked(monitor.emailAddress!), unsubscribedAt: saved, alreadyUnsubscribed: count === 0 };
}
