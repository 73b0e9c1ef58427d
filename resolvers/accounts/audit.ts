// The audit log: what people did to an organization, who did it, from where. An entry is written
// in the same transaction as the change it describes, with an `org.audit.<action>` event beside it
// for webhooks and streams. Entries are kept apart from events, which expire.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { newId } from '../../core/ids.ts';
import { recordEvent } from '../../subscriptions/events.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import type { Context } from '../context.ts';
import type { Principal } from '../principal.ts';

export { auditActions, type AuditAction } from '../../subscriptions/eventTypes.ts';
import type { AuditAction } from '../../subscriptions/eventTypes.ts';

export interface AuditTarget {
  type: string;
  id: string;
}

export interface AuditActor {
  type: 'user' | 'api_key' | 'operator' | 'system';
  id: string | null;
  email: string | null;
}

export function actorOf(principal: Principal | null): AuditActor {
  if (!principal) return { type: 'system', id: null, email: null };
  if (principal.kind === 'api_key') return { type: 'api_key', id: principal.apiKeyId, email: null };
  return { type: principal.operator && !principal.orgId ? 'operator' : 'user', id: principal.userId, email: principal.email };
}

/**
 * Writes one entry and its event in `tx`; publish the returned event after commit. `ctx` gives
 * the actor, request id and client address; `actor` overrides who (a sign-in acts before it has a principal).
 */
export async function recordAudit(
  tx: Prisma.TransactionClient,
  ctx: Pick<Context, 'principal' | 'requestId' | 'clientAddress'>,
  orgId: string,
  action: AuditAction,
  target: AuditTarget | null,
  details: Record<string, unknown> = {},
  actor: AuditActor = actorOf(ctx.principal),
): Promise<BusEvent> {
  const entry = await tx.auditEntry.create({
    data: {
      id: newId('aud'),
      orgId,
      actorType: actor.type,
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      targetType: target?.type ?? null,
      targetId: target?.id ?? null,
      details: details as Prisma.InputJsonValue,
      requestId: ctx.requestId || null,
      ipAddress: ctx.clientAddress ?? null,
    },
  });
  return recordEvent(tx, `org.audit.${action}`, orgId, auditPayload(entry), ctx.requestId || undefined);
}

/** An entry as the API shows it, and as its event's data. */
export function auditPayload(entry: { id: string; actorType: string; actorId: string | null; actorEmail: string | null; action: string; targetType: string | null; targetId: string | null; details: unknown; requestId: string | null; ipAddress: string | null; createdAt: Date }) {
  return {
    id: entry.id,
    action: entry.action,
    actor: { type: entry.actorType, id: entry.actorId, email: entry.actorEmail },
    target: entry.targetType ? { type: entry.targetType, id: entry.targetId } : null,
    details: (entry.details ?? {}) as Prisma.InputJsonValue,
    requestId: entry.requestId,
    ipAddress: entry.ipAddress,
    createdAt: entry.createdAt.toISOString(),
  };
}
