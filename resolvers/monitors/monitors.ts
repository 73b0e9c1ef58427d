// Monitors of an organization (SPEC 4.7): create, list, deactivate, set the delivery, and the
// matches since the last check. The worker side (matches delivered by themselves) is dispatch.ts.
import type { Monitor } from '../../prisma/generated/client/client.ts';
import { ApiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { currentPosition, readPublicEvents, type LogPosition } from '../../subscriptions/eventLog.ts';
import { requireOrg } from '../access.ts';
import type { Context } from '../context.ts';
import { announcedIds, announcingEvent, matchedItems, mayMatch } from './matching.ts';
import { checkQuery, type MonitorQuery } from './spec.ts';
import type { WatchedRecords } from './watchable.ts';

export type MonitorDelivery = { type: 'webhook'; webhookEndpointId: string } | { type: 'email'; address: string };

const emailAddress = /^[^\s@<>(),;:"\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The monitor of the caller's organization; another organization's is not found. */
export async function ownMonitor(ctx: Context, id: string): Promise<Monitor> {
  const monitor = await ctx.prisma.monitor.findFirst({ where: { id, orgId: requireOrg(ctx) } });
  if (!monitor) throw new ApiError('monitor_not_found', `No monitor ${id} in this organization.`);
  return monitor;
}

async function deliveryColumns(ctx: Context, delivery: MonitorDelivery | null | undefined) {
  if (!delivery) return { deliveryType: null, webhookEndpointId: null, emailAddress: null, emailOptedOutAt: null };
  if (delivery.type === 'webhook') {
    const endpoint = await ctx.prisma.webhookEndpoint.findFirst({ where: { id: delivery.webhookEndpointId, orgId: requireOrg(ctx), deletedAt: null } });
    if (!endpoint) throw new ApiError('webhook_endpoint_not_found', `No webhook endpoint ${delivery.webhookEndpointId} in this organization.`);
    return { deliveryType: 'webhook', webhookEndpointId: endpoint.id, emailAddress: null, emailOptedOutAt: null };
  }
  if (!ctx.email.mailer) throw new ApiError('email_delivery_unavailable', 'Email delivery is not configured on this service (IDS_SMTP_URL); deliver to a webhook endpoint instead.');
  if (delivery.address.length > 254 || !emailAddress.test(delivery.address)) {
    throw new ApiError('validation_error', 'delivery.address: not an email address', { details: { issues: [{ path: 'delivery.address', message: 'not an email address', code: 'invalid_format' }] } });
  }
  // setting an address again is the way back after an unsubscribe
  return { deliveryType: 'email', webhookEndpointId: null, emailAddress: delivery.address, emailOptedOutAt: null };
}

export async function createMonitor(ctx: Context, input: { name: string; query: MonitorQuery; delivery?: MonitorDelivery | null }): Promise<Monitor> {
  const orgId = requireOrg(ctx);
  const name = input.name.trim();
  if (!name || name.length > 200) throw new ApiError('validation_error', 'name: 1 to 200 characters', { details: { issues: [{ path: 'name', message: '1 to 200 characters', code: 'too_big' }] } });
  const query = await checkQuery(ctx, input.query);
  const delivery = await deliveryColumns(ctx, input.delivery);
  // matches are what is announced from now on
  const start = await currentPosition(ctx.prisma);
  return ctx.prisma.monitor.create({
    data: {
      id: newId('mon'),
      orgId,
      name,
      route: query.route,
      params: query.params,
      threshold: query.threshold ?? undefined,
      records: query.records,
      scope: query.scope,
      ciks: query.ciks,
      form: query.form,
      ...delivery,
      startTxid: start.txid,
      startSeq: start.seq,
      checkedTxid: start.txid,
      checkedSeq: start.seq,
    },
  });
}

/** DELETE: inactive from now on; again, it stays inactive (SPEC 3). */
export async function deactivateMonitor(ctx: Context, id: string): Promise<Monitor> {
  const monitor = await ownMonitor(ctx, id);
  if (!monitor.isActive) return monitor;
  return ctx.prisma.monitor.update({ where: { id }, data: { isActive: false, deactivatedAt: new Date() } });
}

export async function setMonitorDelivery(ctx: Context, id: string, delivery: MonitorDelivery | null): Promise<Monitor> {
  await ownMonitor(ctx, id);
  return ctx.prisma.monitor.update({ where: { id }, data: await deliveryColumns(ctx, delivery) });
}

export interface Matches {
  monitor: Monitor;
  items: Record<string, unknown>[];
  hasMore: boolean;
  /** the last check before this one (null: never checked) */
  since: Date | null;
  checkedAt: Date;
  peek: boolean;
}

/** Announcements a check reads at most (then it answers hasMore and the next call goes on). */
const scanLimit = 5000;
const scanBatch = 500;

/**
 * The items of the monitor's read among the records announced since the last check, and (unless
 * `peek`) the check moved past them in the same transaction. The monitor's row is locked for the
 * check, so concurrent checks take turns: each item is returned by exactly one of them.
 */
export async function checkMatches(ctx: Context, id: string, options: { peek: boolean; limit: number }): Promise<Matches> {
  const orgId = requireOrg(ctx);
  return ctx.prisma.$transaction(
    async (tx) => {
      const lock = options.peek ? '' : 'FOR UPDATE';
      const [monitor] = await tx.$queryRawUnsafe<Monitor[]>(`SELECT * FROM "Monitor" WHERE "id" = $1 AND "orgId" = $2 ${lock}`, id, orgId);
      if (!monitor) throw new ApiError('monitor_not_found', `No monitor ${id} in this organization.`);
      if (!monitor.isActive) throw new ApiError('monitor_inactive', `Monitor ${id} was deleted (deactivated); it no longer watches. Create another one to watch again.`);
      const reader: Context = { ...ctx, prisma: tx as unknown as Context['prisma'] };
      const { items, position, hasMore } = await collect(reader, monitor, { txid: monitor.checkedTxid, seq: monitor.checkedSeq }, options.limit);
      const checkedAt = new Date();
      let saved = monitor;
      if (!options.peek) saved = await tx.monitor.update({ where: { id }, data: { checkedTxid: position.txid, checkedSeq: position.seq, lastCheckedAt: checkedAt } });
      return { monitor: saved, items, hasMore, since: monitor.lastCheckedAt, checkedAt, peek: options.peek };
    },
    { timeout: 30_000 },
  );
}

/**
 * How many matches wait since the last check, counted up to `limit`, for a list of monitors: read
 * without the row lock or moving the check (a check may move it meanwhile). Null: deactivated.
 */
export async function waitingMatches(ctx: Context, monitor: Monitor, limit: number): Promise<{ count: number; hasMore: boolean } | null> {
  if (!monitor.isActive) return null;
  const { items, hasMore } = await collect(ctx, monitor, { txid: monitor.checkedTxid, seq: monitor.checkedSeq }, limit);
  return { count: items.length, hasMore };
}

/** Reads announcements after `from` until `limit` items are found, the log is read to its end, or the scan limit. */
async function collect(ctx: Context, monitor: Monitor, from: LogPosition, limit: number) {
  const type = announcingEvent[monitor.records as WatchedRecords];
  const ciks = monitor.ciks[0] === '*' ? null : monitor.ciks;
  const items: Record<string, unknown>[] = [];
  let position = from;
  for (let scanned = 0; scanned < scanLimit; ) {
    const events = await readPublicEvents(ctx.prisma, type, position, scanBatch, ciks);
    scanned += events.length;
    const candidates = events.filter((e) => mayMatch(monitor, e));
    // each announcement of a filing, form or event yields at most one item: run the read over
    // as many as the page has room for at a time, and stop at an event boundary
    let next = 0;
    while (next < candidates.length && items.length < limit) {
      const chunk = candidates.slice(next, next + Math.max(1, limit - items.length));
      items.push(...(await matchedItems(ctx, monitor, chunk.flatMap(announcedIds))));
      next += chunk.length;
      position = chunk[chunk.length - 1]!.position;
    }
    if (items.length >= limit) return { items, position, hasMore: next < candidates.length || events.length === scanBatch };
    if (events.length) position = laterOf(position, events[events.length - 1]!.position);
    if (events.length < scanBatch) return { items, position, hasMore: false };
  }
  return { items, position, hasMore: true };
}

function laterOf(a: LogPosition, b: LogPosition): LogPosition {
  return a.txid > b.txid || (a.txid === b.txid && a.seq >= b.seq) ? a : b;
}

export function deliveryOf(m: Monitor): MonitorDelivery | null {
  if (m.deliveryType === 'webhook' && m.webhookEndpointId) return { type: 'webhook', webhookEndpointId: m.webhookEndpointId };
  if (m.deliveryType === 'email' && m.emailAddress) return { type: 'email', address: m.emailAddress };
  return null;
}
