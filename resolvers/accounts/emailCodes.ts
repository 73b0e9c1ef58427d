// Sign-in with a code sent by email: six digits, valid ten minutes, five tries, kept only as an
// HMAC. Asking again within a minute is refused (the last email is still on its way); tries are
// limited per address and per client address, so that a code cannot be guessed by spreading
// attempts over many codes or many addresses.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { QuotaWindow } from '../../core/limiter.ts';
import type { Context } from '../context.ts';
import { normalizedEmail } from './people.ts';

export const codeTtlMs = 10 * 60_000;
export const maxCodeAttempts = 5;
/** Seconds before another code may be sent to the same address. */
export const resendAfterSeconds = 60;

/** Tries of codes one address may make in an hour, whoever makes them. */
const verifyPerAddress: QuotaWindow[] = [{ period: 'hour', limit: 20 }];

/** What one client address (IP) may do in an hour: ask for codes, and try twice as many. */
function perClient(ctx: Pick<Context, 'config'>) {
  const requests = ctx.config.signInPerClientPerHour;
  return { requests: [{ period: 'hour', limit: requests }] as QuotaWindow[], verifies: [{ period: 'hour', limit: requests * 2 }] as QuotaWindow[] };
}

const singleAddress = /^[^\s@,;:<>()"\\[\]]+@[^\s@,;:<>()"\\[\]]+\.[^\s@,;:<>()"\\[\]]+$/;

export function assertEmail(email: string): string {
  const normalized = normalizedEmail(email);
  if (normalized.length > 254 || !singleAddress.test(normalized)) {
    throw new ApiError('validation_error', '`email` must be one email address.', { details: { issues: [{ path: 'email', message: 'one email address, like ana@example.com', code: 'invalid_format' }] } });
  }
  return normalized;
}

function digest(secret: string, email: string, code: string): string {
  return createHmac('sha256', secret).update(`email_code\0${email}\0${code}`).digest('hex');
}

/** Counts one sign-in step against a limit; the service's own limiter, failing open (tries per code are capped in the database anyway). */
export async function throttle(ctx: Pick<Context, 'limiter'>, subject: string, windows: QuotaWindow[]): Promise<void> {
  const decision = await ctx.limiter.consume(`auth:${subject}`, windows, 'open');
  if (decision.allowed === false) {
    throw new ApiError('rate_limited', `Too many sign-in attempts; try again in ${decision.retryAfterSeconds} seconds.`, { retryAfter: decision.retryAfterSeconds });
  }
}

export async function requestEmailCode(ctx: Context, rawEmail: string) {
  const email = assertEmail(rawEmail);
  const mailer = ctx.email.mailer;
  if (!mailer) {
    throw new ApiError('auth_verification_unavailable', 'Sign-in by email is not available: this service has no email delivery configured (IDS_SMTP_URL). Ask its operator for a sign-in link (`npm run ids -- sign-in-link --email <email>`).', { retryAfter: 60 });
  }
  const last = await ctx.prisma.authChallenge.findFirst({ where: { kind: 'email_code', email }, orderBy: { createdAt: 'desc' } });
  const waited = last ? (Date.now() - last.createdAt.getTime()) / 1000 : Infinity;
  if (waited < resendAfterSeconds) {
    const retryAfter = Math.ceil(resendAfterSeconds - waited);
    throw new ApiError('verification_resend_rate_limited', `A code was sent to ${email} moments ago; a new one can be sent in ${retryAfter} seconds.`, { retryAfter });
  }
  await throttle(ctx, `request:${ctx.clientAddress ?? 'unknown'}`, perClient(ctx).requests);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + codeTtlMs);
  // A new code replaces any earlier one: only the latest email works.
  const challenge = await ctx.prisma.$transaction(async (tx) => {
    await tx.authChallenge.updateMany({ where: { kind: 'email_code', email, consumedAt: null }, data: { consumedAt: new Date() } });
    return tx.authChallenge.create({ data: { id: newId('ach'), kind: 'email_code', email, secretHash: digest(ctx.sessionSecret, email, code), expiresAt } });
  });
  try {
    await mailer.send({
      to: email,
      subject: `${code} is your sign-in code`,
      text: `Your sign-in code for the Investor Data Service is ${code}.\n\nIt works for 10 minutes. If you did not ask for it, ignore this email: nobody can sign in without the code.\n`,
      html: `<p>Your sign-in code for the Investor Data Service is</p><p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p><p>It works for 10 minutes. If you did not ask for it, ignore this email: nobody can sign in without the code.</p>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  } catch (error) {
    // nothing was sent: the code must not count as sent, or the resend wait would lock the person out
    await ctx.prisma.authChallenge.delete({ where: { id: challenge.id } });
    ctx.logger.warn({ err: error, requestId: ctx.requestId }, 'sign-in code email failed');
    throw new ApiError('auth_verification_unavailable', 'The sign-in email could not be sent just now; try again shortly.', { retryAfter: 30, retryable: true });
  }
  return { email, expiresAt, resendAfterSeconds };
}

/** Checks a code; answers the verified address (the caller signs the person in). */
export async function verifyEmailCode(ctx: Context, rawEmail: string, code: string): Promise<string> {
  const email = assertEmail(rawEmail);
  await throttle(ctx, `verify:${email}`, verifyPerAddress);
  await throttle(ctx, `verify-client:${ctx.clientAddress ?? 'unknown'}`, perClient(ctx).verifies);
  const challenge = await ctx.prisma.authChallenge.findFirst({ where: { kind: 'email_code', email, consumedAt: null, expiresAt: { gt: new Date() } }, orderBy: { createdAt: 'desc' } });
  if (!challenge || challenge.attempts >= maxCodeAttempts) {
    throw new ApiError('verification_code_expired', 'There is no valid code for this address (it expired, was used, or was tried too often); request a new one.');
  }
  const expected = Buffer.from(challenge.secretHash, 'hex');
  const given = Buffer.from(digest(ctx.sessionSecret, email, /^\d{6}$/.test(code) ? code : ''), 'hex');
  if (!/^\d{6}$/.test(code) || !timingSafeEqual(expected, given)) {
    // counted in the row, so that concurrent tries on any instance share the five
    const counted = await ctx.prisma.authChallenge.updateMany({ where: { id: challenge.id, attempts: { lt: maxCodeAttempts } }, data: { attempts: { increment: 1 } } });
    const left = Math.max(0, maxCodeAttempts - challenge.attempts - counted.count);
    throw new ApiError('verification_code_invalid', left ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.` : 'That code is not right, and it was the last try; request a new code.', { details: { attemptsLeft: left } });
  }
  const used = await ctx.prisma.authChallenge.updateMany({ where: { id: challenge.id, consumedAt: null }, data: { consumedAt: new Date() } });
  if (used.count === 0) throw new ApiError('verification_code_expired', 'This code was just used; request a new one.');
  return email;
}
