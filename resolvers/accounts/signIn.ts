// The last step of every way in (an emailed code, a link, an OpenID provider): the person, their
// organization, a new session, and the audit entry saying so.
import { publishAll } from '../../subscriptions/events.ts';
import type { Context } from '../context.ts';
import { recordAudit } from './audit.ts';
import { signInPerson } from './people.ts';
import { startSession, type SignInMethod } from './sessions.ts';

export async function completeSignIn(ctx: Context, email: string, method: SignInMethod, rememberMe: boolean) {
  const person = await signInPerson(ctx.prisma, email);
  const { session, token } = await startSession(ctx, { ...person, rememberMe, method, userAgent: ctx.userAgent, ipAddress: ctx.clientAddress });
  if (person.orgId) {
    const event = await ctx.prisma.$transaction((tx) =>
      recordAudit(tx, ctx, person.orgId!, 'session.signed_in', { type: 'session', id: session.id }, { method, rememberMe }, { type: 'user', id: person.userId, email: person.email }),
    );
    await publishAll(ctx.bus, [event]);
  }
  return { session, token, userId: person.userId, orgId: person.orgId };
}
