// Webhook endpoints of an organization (SPEC 4.9): create, change, disable, delete, rotate the
// signing secret, send a test, replay a stored attempt. Deliveries are made by
// workers/webhooks.ts from the event log.
import type { Prisma, WebhookDelivery, WebhookEndpoint } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { isEventType } from '../subscriptions/eventTypes.ts';
import { publishAll, recordEvent } from '../subscriptions/events.ts';
import { checkWebhookUrl, UrlRefused } from '../subscriptions/webhooks/sender.ts';
import { decryptSecret, encryptSecret, newSigningSecret } from '../subscriptions/webhooks/signing.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';
import { recordAudit } from './accounts/audit.ts';

/** After a rotation, deliveries are signed with the old secret too for this long. */
export const rotationOverlapMs = 24 * 3600_000;

export interface EndpointInput {
  url?: string;
  description?: string;
  eventTypes?: string[];
  status?: 'enabled' | 'disabled';
}

/** The endpoint of the caller's organization; another organization's, or a deleted one, is not found. */
export async function ownEndpoint(ctx: Context, id: string): Promise<WebhookEndpoint> {
  const endpoint = await ctx.prisma.webhookEndpoint.findFirst({ where: { id, orgId: requireOrg(ctx), deletedAt: null } });
  if (!endpoint) throw new ApiError('webhook_endpoint_not_found', `No webhook endpoint ${id} in this organization.`);
  return endpoint;
}

async function checkedUrl(ctx: Context, url: string): Promise<string> {
  try {
    return (await checkWebhookUrl(url, { allowedHosts: ctx.webhooks.allowedHosts })).url.toString();
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    throw new ApiError('validation_error', `url: ${error.message}`, { details: { issues: [{ path: 'url', message: error.message, code: error.reason }] } });
  }
}

function checkedTypes(eventTypes: string[]): string[] {
  const unknown = eventTypes.filter((type) => type !== '*' && !isEventType(type));
  if (unknown.length) {
    throw new ApiError('validation_error', `eventTypes: unknown event type ${unknown.join(', ')}; GET /v1/event_types lists them.`, {
      details: { issues: [{ path: 'eventTypes', message: `unknown event type ${unknown.join(', ')}` }] },
    });
  }
  return eventTypes.includes('*') ? ['*'] : [...new Set(eventTypes)];
}

export async function createEndpoint(ctx: Context, input: Required<Pick<EndpointInput, 'url'>> & EndpointInput) {
  const orgId = requireOrg(ctx);
  const url = await checkedUrl(ctx, input.url);
  const secret = newSigningSecret();
  const endpoint = await ctx.prisma.webhookEndpoint.create({
    data: { id: newId('we'), orgId, url, description: input.description ?? '', eventTypes: checkedTypes(input.eventTypes ?? ['*']), secretSealed: encryptSecret(ctx.webhooks.key, secret) },
  });
  return { endpoint, secret };
}

export async function updateEndpoint(ctx: Context, id: string, input: EndpointInput) {
  const endpoint = await ownEndpoint(ctx, id);
  const data: Prisma.WebhookEndpointUpdateInput = {};
  if (input.url !== undefined) data.url = await checkedUrl(ctx, input.url);
  if (input.description !== undefined) data.description = input.description;
  if (input.eventTypes !== undefined) data.eventTypes = checkedTypes(input.eventTypes);
  if (input.status === 'enabled' && endpoint.status !== 'enabled') Object.assign(data, { status: 'enabled', disabledReason: null, failingSince: null });
  if (input.status === 'disabled' && endpoint.status !== 'disabled') return disableEndpoint(ctx, endpoint, 'requested', 'disabled by a request', data);
  return ctx.prisma.webhookEndpoint.update({ where: { id }, data });
}

/** Disables an endpoint and records `webhook_endpoint.disabled`, in one transaction. */
export async function disableEndpoint(ctx: Pick<Context, 'prisma' | 'bus'> & { requestId?: string }, endpoint: WebhookEndpoint, reason: 'requested' | 'gone' | 'failing', detail: string, more: Prisma.WebhookEndpointUpdateInput = {}) {
  const [updated, event] = await ctx.prisma.$transaction(async (tx) => [
    await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { ...more, status: 'disabled', disabledReason: reason } }),
    await recordEvent(tx, 'webhook_endpoint.disabled', endpoint.orgId, { webhookEndpointId: endpoint.id, reason, detail }, ctx.requestId),
  ]);
  await publishAll(ctx.bus, [event]);
  return updated;
}

/** Deleted endpoints receive nothing more; their delivery history stays readable. Idempotent. */
export async function deleteEndpoint(ctx: Context, id: string) {
  const endpoint = await ctx.prisma.webhookEndpoint.findFirst({ where: { id, orgId: requireOrg(ctx) } });
  if (!endpoint) throw new ApiError('webhook_endpoint_not_found', `No webhook endpoint ${id} in this organization.`);
  if (endpoint.deletedAt) return endpoint;
  return ctx.prisma.webhookEndpoint.update({ where: { id }, data: { deletedAt: new Date(), status: 'disabled', disabledReason: endpoint.disabledReason ?? 'requested' } });
}

export async function rotateSecret(ctx: Context, id: string) {
  const endpoint = await ownEndpoint(ctx, id);
  const secret = newSigningSecret();
  const { updated, audit } = await ctx.prisma.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: { secretSealed: encryptSecret(ctx.webhooks.key, secret), previousSecretSealed: endpoint.secretSealed, previousSecretExpiresAt: new Date(Date.now() + rotationOverlapMs) },
    });
    const audit = await recordAudit(tx, ctx, endpoint.orgId, 'webhook.secret_rotated', { type: 'webhook_endpoint', id }, { url: endpoint.url, previousSecretExpiresAt: updated.previousSecretExpiresAt?.toISOString() ?? null });
    return { updated, audit };
  });
  await publishAll(ctx.bus, [audit]);
  return { endpoint: updated, secret };
}

/** The secrets a delivery is signed with now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(key: Buffer, endpoint: WebhookEndpoint, now = new Date()): string[] {
  const secrets = [decryptSecret(key, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) secrets.push(decryptSecret(key, endpoint.previousSecretSealed));
  return secrets;
}

/** A pending attempt to deliver an event to one endpoint: by default the first, due now. */
export function attemptRow(
  endpoint: WebhookEndpoint,
  event: { id: string; type: string },
  { attempt = 1, replayOf = null, dueAt = new Date() }: { attempt?: number; replayOf?: string | null; dueAt?: Date } = {},
): Prisma.WebhookDeliveryCreateManyInput {
  return { id: newId('del'), endpointId: endpoint.id, orgId: endpoint.orgId, eventId: event.id, eventType: event.type, attempt, status: 'pending', replayOf, nextAttemptAt: dueAt };
}

/** Emits `webhook.test` to this endpoint only, through the same delivery path; answers the delivery. */
export async function sendTest(ctx: Context, id: string): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, id);
  if (endpoint.status !== 'enabled') throw new ApiError('webhook_endpoint_disabled', `The endpoint ${id} is disabled; enable it first.`);
  const [delivery, event] = await ctx.prisma.$transaction(async (tx) => {
    const recorded = await recordEvent(tx, 'webhook.test', endpoint.orgId, { webhookEndpointId: endpoint.id, message: 'A test event from the Investor Data Service.' }, ctx.requestId);
    // The dispatcher sends an event to every endpoint that subscribes to it; a test goes to this one only.
    const row = await tx.webhookDelivery.create({ data: attemptRow(endpoint, recorded) });
    return [row, recorded] as const;
  });
  await publishAll(ctx.bus, [event]);
  return delivery;
}

/** Re-sends the event of a stored attempt, with the same webhook-id; answers the new delivery. */
export async function replayDelivery(ctx: Context, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, endpointId);
  const source = await ctx.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id } });
  if (!source) throw new ApiError('delivery_not_found', `No delivery ${deliveryId} of the endpoint ${endpointId}.`);
  if (endpoint.status !== 'enabled') throw new ApiError('webhook_endpoint_disabled', `The endpoint ${endpointId} is disabled; enable it first.`);
  const event = await ctx.prisma.event.findUnique({ where: { id: source.eventId }, select: { id: true, type: true } });
  if (!event) throw new ApiError('event_not_found', `The event ${source.eventId} is past retention and can no longer be replayed.`);
  return ctx.prisma.webhookDelivery.create({ data: attemptRow(endpoint, event, { replayOf: source.id }) });
}
