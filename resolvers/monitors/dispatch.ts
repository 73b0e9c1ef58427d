// Monitors running by themselves: every instance's worker reads the event log past the `monitors`
// checkpoint (held FOR UPDATE SKIP LOCKED: one instance at a time), finds the active monitors
// with a destination that each announcement may concern (by index on their CIKs, then on the
// rest of their keys), runs each one's read over the announced records and, where it shows any,
// writes `monitor.matched` with its delivery: a webhook attempt to the monitor's endpoint or a
// digest email. All of it commits with the checkpoint's move, so a match is delivered once, and
// an announcement the bus did not wake anyone for is read on the next poll (the sweep).
import type { Monitor } from '../../prisma/generated/client/client.ts';
import type { Services } from '../context.ts';
import { ApiError } from '../../core/errors.ts';
import { holdCheckpoint, readAllEvents, type LoggedEvent } from '../../subscriptions/eventLog.ts';
import { publishAll, recordEvent } from '../../subscriptions/events.ts';
import type { BusEvent } from '../../subscriptions/bus.ts';
import { attemptRow } from '../webhooks.ts';
import { announcedIds, announcingEvent, matchedItems, mayMatch, monitorContext } from './matching.ts';
import { digestEmail } from './email.ts';

const checkpoint = 'monitors';
const batch = 500;
/** items carried in a monitor.matched event; matchCount says how many there were */
export const itemsPerEvent = 25;
const announcingTypes = new Set(Object.values(announcingEvent));

/** One batch; returns how many events it read (0: none waiting, or another instance is on it). */
export async function dispatchMonitorMatches(services: Services): Promise<number> {
  const published: BusEvent[] = [];
  const read = await services.prisma.$transaction(
    async (tx) => {
      const held = await holdCheckpoint(tx, checkpoint);
      if (!held) return 0;
      const events = await readAllEvents(tx, held, batch);
      if (!events.length) return 0;
      const announcements = events.filter((e) => e.orgId === null && announcingTypes.has(e.type));
      const monitors = announcements.length ? await candidates(tx, announcements) : [];
      const reader = { ...services, prisma: tx as unknown as Services['prisma'] };
      // monitors saving the same read over the same records share one run of it
      const runs = new Map<string, Promise<Record<string, unknown>[]>>();
      for (const monitor of monitors) {
        const mine = announcements.filter((e) => mayMatch(monitor, e));
        if (!mine.length) continue;
        const ids = [...new Set(mine.flatMap(announcedIds))].sort();
        const key = JSON.stringify([monitor.route, monitor.params, monitor.threshold, ids]);
        if (!runs.has(key)) runs.set(key, matchedItems(monitorContext(reader, monitor.orgId, `mon:${monitor.id}`), monitor, ids).catch((error) => failedRead(services, monitor, error)));
        const items = await runs.get(key)!;
        if (items.length) published.push(await deliverMatch(services, tx, monitor, items));
      }
      const last = events[events.length - 1]!.position;
      await tx.logCheckpoint.update({ where: { name: checkpoint }, data: { txid: last.txid, seq: last.seq } });
      return events.length;
    },
    { timeout: 60_000 },
  );
  await publishAll(services.bus, published);
  return read;
}

/**
 * Active monitors with a destination that these announcements may concern: those naming one of
 * their companies or none (a GIN index lookup on `ciks`), of the record kinds announced.
 */
function candidates(tx: Tx, announcements: LoggedEvent[]): Promise<Monitor[]> {
  const ciks = new Set<string>(['*']);
  for (const e of announcements) {
    const cik = (e.payload as { cik?: string | null }).cik;
    if (cik) ciks.add(cik);
  }
  const records = Object.entries(announcingEvent).filter(([, type]) => announcements.some((e) => e.type === type)).map(([records]) => records);
  return tx.monitor.findMany({
    where: { isActive: true, records: { in: records }, ciks: { hasSome: [...ciks] }, OR: [{ deliveryType: 'webhook' }, { deliveryType: 'email', emailOptedOutAt: null }] },
    orderBy: { id: 'asc' },
  });
}

/**
 * A read that refuses (its ticker no longer names a company, say) matches nothing this time
 * instead of holding every other monitor back; anything else fails the batch, retried next cycle.
 */
function failedRead(services: Services, monitor: Monitor, error: unknown): Record<string, unknown>[] {
  if (!(error instanceof ApiError)) throw error;
  services.logger.warn({ monitorId: monitor.id, code: error.code }, 'a monitor\'s read was refused; no match this time');
  return [];
}

type Tx = Parameters<Parameters<Services['prisma']['$transaction']>[0]>[0];

async function deliverMatch(services: Services, tx: Tx, monitor: Monitor, items: Record<string, unknown>[]): Promise<BusEvent> {
  const delivery = monitor.deliveryType as 'webhook' | 'email';
  const event = await recordEvent(tx, 'monitor.matched', monitor.orgId, {
    monitorId: monitor.id,
    name: monitor.name,
    route: monitor.route,
    delivery,
    matchCount: items.length,
    items: items.slice(0, itemsPerEvent) as never,
  });
  if (delivery === 'webhook') {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: monitor.webhookEndpointId!, orgId: monitor.orgId, deletedAt: null } });
    // a disabled endpoint's attempt fails at once, with the reason on record
    if (endpoint) await tx.webhookDelivery.create({ data: attemptRow(endpoint, event) });
  } else {
    await tx.monitorEmail.create({ data: digestEmail(services, monitor, event.id, items) });
  }
  return event;
}
