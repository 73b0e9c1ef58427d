// Reading the audit log (the entries resolvers/accounts/audit.ts writes): the organization's
// entries newest first, narrowed to one action or one actor.
import { ApiError } from '../../core/errors.ts';
import type { Prisma } from '../../prisma/generated/client/client.ts';
import { auditActions } from '../../subscriptions/eventTypes.ts';
import { requireOrg } from '../access.ts';
import type { Context } from '../context.ts';
import { actorOf, recordAudit, type AuditAction, type AuditActor, type AuditTarget } from './audit.ts';

export function auditLogWhere(ctx: Context, filter: { action?: string | null; actorId?: string | null }): Prisma.AuditEntryWhereInput {
  const orgId = requireOrg(ctx);
  if (filter.action != null && !Object.hasOwn(auditActions, filter.action)) {
    throw new ApiError('invalid_query_parameter', `Query parameter \`action\`: ${JSON.stringify(filter.action)} is not an audited action.`, { details: { parameter: 'action', acceptedValues: Object.keys(auditActions) } });
  }
  return { orgId, ...(filter.action != null ? { action: filter.action } : {}), ...(filter.actorId != null ? { actorId: filter.actorId } : {}) };
}

/**
 * Who made a change, for its audit entry: the request's context (its principal, request id and
 * client address), and the actor when it is not the principal (an operator acting on another
 * organization, the payment processor).
 */
export interface AuditSource {
  ctx: Pick<Context, 'principal' | 'requestId' | 'clientAddress'>;
  actor?: AuditActor;
}

/** A change made outside any request by the person at the terminal: the operator CLI. */
export const operatorCli: AuditSource = { ctx: { principal: null, requestId: '' }, actor: { type: 'operator', id: null, email: null } };

/** A change the payment processor told the service about (its signed webhook). */
export const paymentProcessor: AuditSource = { ctx: { principal: null, requestId: '' }, actor: { type: 'system', id: 'payment_processor', email: null } };

/** recordAudit for a change made by `source`. */
export function recordAuditBy(tx: Prisma.TransactionClient, source: AuditSource, orgId: string, action: AuditAction, target: AuditTarget | null, details: Record<string, unknown> = {}) {
  return recordAudit(tx, source.ctx, orgId, action, target, details, source.actor ?? actorOf(source.ctx.principal));
}
