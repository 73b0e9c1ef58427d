// The organization's alerts: its own events that need a person (a monitor matched, a webhook
// endpoint disabled, a delivery given up, a budget soft cap, a low balance, a failed auto-top-up). An alert is the
// event itself, so its id is the event id and it lives as long as the event (30 days); an
// acknowledgement is a row beside it (AlertAcknowledgement), kept per organization.
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { createdPlace, createdPlaceOf, pageCursor } from '../core/cursor.ts';
import { eventRetentionDays } from '../subscriptions/eventLog.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export const alertSeverities = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

export const alertStatuses = ['open', 'acknowledged', 'all'] as const;
export type AlertStatus = (typeof alertStatuses)[number];

export interface AlertLinks {
  monitorId: string | null;
  webhookEndpointId: string | null;
  deliveryId: string | null;
}

type Data = Record<string, unknown>;

interface AlertKind {
  severity: (data: Data) => AlertSeverity;
  title: (data: Data) => string;
  links: (data: Data) => Partial<AlertLinks>;
}

// Event data is read as stored: an event written by an older release may miss a field.
const text = (value: unknown, missing = '?') => (typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : missing);
const id = (value: unknown) => (typeof value === 'string' && value ? value : null);
const dollars = (cents: unknown) => (typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : '?');
const plural = (n: unknown, one: string) => `${text(n)} ${n === 1 ? one : `${one}s`}`;

/** Every alert type, its severity, its one-line title and what it links to. */
const kinds: Record<string, AlertKind> = {
  'monitor.matched': {
    severity: () => 'info',
    title: (d) => `Monitor "${text(d.name)}" matched ${plural(d.matchCount, 'new record')} of ${text(d.route)}`,
    links: (d) => ({ monitorId: id(d.monitorId) }),
  },
  'webhook_endpoint.disabled': {
    // a person who disabled it knows; the service disabling it is what stops deliveries unnoticed
    severity: (d) => (d.reason === 'requested' ? 'info' : 'critical'),
    title: (d) =>
      `Webhook endpoint ${text(d.webhookEndpointId)} was disabled ${d.reason === 'gone' ? 'because its receiver answered 410 Gone' : d.reason === 'failing' ? 'after failing without a success for 5 days' : 'on request'}`,
    links: (d) => ({ webhookEndpointId: id(d.webhookEndpointId) }),
  },
  'delivery.exhausted': {
    severity: () => 'warning',
    title: (d) => `Event ${text(d.eventId)} (${text(d.eventType)}) was not delivered to webhook endpoint ${text(d.webhookEndpointId)} after ${plural(d.attempts, 'attempt')}`,
    links: (d) => ({ webhookEndpointId: id(d.webhookEndpointId), deliveryId: id(d.deliveryId) }),
  },
  'billing.soft_cap_reached': {
    severity: () => 'warning',
    title: (d) => `Prepaid spend for ${text(d.period)} reached the soft cap of ${dollars(d.softCapCents)}`,
    links: () => ({}),
  },
  'billing.balance_low': {
    // with auto-top-up on, the service refills it; without, calls stop when the credit runs out
    severity: (d) => (d.autoTopup === true ? 'info' : 'warning'),
    title: (d) => `Prepaid credit fell below the low-balance threshold of ${dollars(d.thresholdCents)}${d.autoTopup === true ? '; auto-top-up refills it' : '; top up to keep paying for calls'}`,
    links: () => ({}),
  },
  'billing.auto_topup_failed': {
    severity: () => 'critical',
    title: (d) => `Auto-top-up failed (${text(d.reason)}) and is paused until the next top-up or a change of its settings`,
    links: () => ({}),
  },
};

/** The event types that are alerts. */
export const alertTypes = Object.keys(kinds);

/** How each type's severity is decided, for the contract. */
export const severityRules =
  '`critical`: webhook_endpoint.disabled by the service (its receiver answered 410, or it failed for 5 days) and billing.auto_topup_failed; `warning`: delivery.exhausted, billing.soft_cap_reached and billing.balance_low without auto-top-up; `info`: monitor.matched, webhook_endpoint.disabled on request and billing.balance_low with auto-top-up.';

interface AlertRow {
  id: string;
  type: string;
  payload: unknown;
  createdAt: Date;
  acknowledgedBy: string | null;
  acknowledgedAt: Date | null;
}

export function toAlert(row: AlertRow) {
  const kind = kinds[row.type]!;
  const data = (row.payload && typeof row.payload === 'object' ? row.payload : {}) as Data;
  return {
    id: row.id,
    type: row.type,
    severity: kind.severity(data),
    title: kind.title(data),
    createdAt: row.createdAt,
    data,
    links: { monitorId: null, webhookEndpointId: null, deliveryId: null, ...kind.links(data) },
    acknowledged: row.acknowledgedBy && row.acknowledgedAt ? { by: row.acknowledgedBy, at: row.acknowledgedAt } : null,
  };
}

export type Alert = ReturnType<typeof toAlert>;

export interface AlertFilter {
  type?: string | null;
  status?: AlertStatus | null;
  /** [from, to) */
  from?: Date | null;
  to?: Date | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Newest first by (createdAt, id). */
const alertsCursor = pageCursor('alerts', createdPlace);

function checkFilter(filter: AlertFilter) {
  if (filter.type != null && !alertTypes.includes(filter.type)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`type\`: ${JSON.stringify(filter.type)} is not an alert type.`, { details: { parameter: 'type', acceptedValues: alertTypes } });
  }
  if (filter.status != null && !(alertStatuses as readonly string[]).includes(filter.status)) {
    throw new ApiError('invalid_query_parameter', `Parameter \`status\`: ${JSON.stringify(filter.status)} is not open, acknowledged or all.`, { details: { parameter: 'status', acceptedValues: [...alertStatuses] } });
  }
  for (const [name, at] of [['from', filter.from], ['to', filter.to]] as const) {
    if (at && Number.isNaN(at.getTime())) throw new ApiError('invalid_request_parameter', `Parameter \`${name}\`: not an ISO-8601 time.`, { details: { parameter: name } });
  }
  if (filter.from && filter.to && filter.from >= filter.to) throw new ApiError('invalid_request_parameter', 'Parameter `from` must be before `to`.', { details: { parameter: 'from' } });
  if (filter.last != null || filter.before != null) {
    throw new ApiError('invalid_query_parameter', 'Alerts page forward only, newest first: use `first` and `after`.', { details: { parameter: filter.before != null ? 'before' : 'last' } });
  }
  const size = filter.first ?? 25;
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new ApiError('invalid_query_parameter', '`first` must be 1 to 100.', { details: { parameter: 'first' } });
  return size;
}

const acknowledgedJoin = Prisma.sql`LEFT JOIN "AlertAcknowledgement" a ON a."orgId" = e."orgId" AND a."eventId" = e."id"`;

/**
 * A page of the organization's alerts, newest first, as a Relay connection: one keyset read of
 * its events of the alert types with their acknowledgements, at most 101 rows, never an OFFSET.
 */
export async function listAlerts(ctx: Context, filter: AlertFilter) {
  const orgId = requireOrg(ctx);
  const size = checkFilter(filter);
  const after = filter.after != null ? alertsCursor.decode(filter.after) : null;
  const status = filter.status ?? 'open';
  const conditions = [
    Prisma.sql`e."orgId" = ${orgId}`,
    filter.type != null ? Prisma.sql`e."type" = ${filter.type}` : Prisma.sql`e."type" = ANY(${alertTypes}::text[])`,
    ...(status === 'open' ? [Prisma.sql`a."eventId" IS NULL`] : status === 'acknowledged' ? [Prisma.sql`a."eventId" IS NOT NULL`] : []),
    ...(filter.from ? [Prisma.sql`e."createdAt" >= ${filter.from}`] : []),
    ...(filter.to ? [Prisma.sql`e."createdAt" < ${filter.to}`] : []),
    ...(after ? [Prisma.sql`(e."createdAt", e."id") < (${after.createdAt}, ${after.id})`] : []),
  ];
  const rows = await ctx.prisma.$queryRaw<AlertRow[]>`
    SELECT e."id", e."type", e."payload", e."createdAt", a."acknowledgedBy", a."acknowledgedAt"
    FROM "Event" e ${acknowledgedJoin}
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY e."createdAt" DESC, e."id" DESC
    LIMIT ${size + 1}`;
  const more = rows.length > size;
  const edges = rows.slice(0, size).map((row) => ({ cursor: alertsCursor.encode(createdPlaceOf(row)), node: toAlert(row) }));
  return {
    edges,
    pageInfo: { hasNextPage: more, hasPreviousPage: after != null, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

const notFound = (alertId: string) => new ApiError('alert_not_found', `No alert ${alertId} of this organization (alerts are kept ${eventRetentionDays} days).`);

/** Who is acknowledging: the person (`usr_…`) or the API key (`key_…`). */
function acknowledger(ctx: Context): string {
  const principal = ctx.principal!;
  return principal.kind === 'api_key' ? principal.apiKeyId : principal.userId;
}

/**
 * Acknowledges an alert of the organization, once: acknowledging again answers the first
 * acknowledgement. An id that is not an alert of this organization (unknown, another type,
 * another organization's) is the same 404.
 */
export async function acknowledgeAlert(ctx: Context, alertId: string): Promise<Alert> {
  const orgId = requireOrg(ctx);
  const event = await ctx.prisma.event.findFirst({ where: { id: alertId, orgId, type: { in: alertTypes } }, select: { id: true } });
  if (!event) throw notFound(alertId);
  await ctx.prisma.alertAcknowledgement.createMany({ data: [{ orgId, eventId: alertId, acknowledgedBy: acknowledger(ctx) }], skipDuplicates: true });
  const [row] = await ctx.prisma.$queryRaw<AlertRow[]>`
    SELECT e."id", e."type", e."payload", e."createdAt", a."acknowledgedBy", a."acknowledgedAt"
    FROM "Event" e ${acknowledgedJoin}
    WHERE e."orgId" = ${orgId} AND e."id" = ${alertId}`;
  if (!row) throw notFound(alertId); // purged meanwhile
  return toAlert(row);
}
