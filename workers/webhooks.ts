// The delivery worker, run by every instance: monitors' matches (resolvers/monitors/dispatch.ts),
// their emails (resolvers/monitors/email.ts), and webhooks. The webhook part is two steps, both
// coordinated through the database so that any number of instances share the work and a killed
// one loses nothing:
//
// 1. dispatch: read the event log past the `webhooks` checkpoint (locked FOR UPDATE SKIP LOCKED:
//    one instance at a time) and write a pending first attempt for every enabled endpoint the
//    event is for, moving the checkpoint in the same transaction.
// 2. deliver: claim due attempts (a lease, taken FOR UPDATE SKIP LOCKED), sign and send each, and
//    record the outcome; a suspended organization's attempts are left for after its suspension. An attempt whose worker died keeps its status `pending` and is claimed
//    again when its lease runs out: at-least-once, with the same webhook-id.
import type { Event, WebhookDelivery, WebhookEndpoint } from '../prisma/generated/client/client.ts';
import { eventLoopTurn } from '../core/requestActivity.ts';
import type { Services } from '../resolvers/context.ts';
import { attemptRow, disableEndpoint, signingSecrets } from '../resolvers/webhooks.ts';
import { holdCheckpoint, isNewTo, logStart, readAllEvents, servedEvent, type LoggedEvent } from '../subscriptions/eventLog.ts';
import { isPublicEventType } from '../subscriptions/eventTypes.ts';
import { publishAll, recordEvent } from '../subscriptions/events.ts';
import { startEventPurge } from '../subscriptions/retention.ts';
import { sendWebhook } from '../subscriptions/webhooks/sender.ts';
import { dispatchMonitorMatches } from '../resolvers/monitors/dispatch.ts';
import { deliverEmails } from '../resolvers/monitors/email.ts';
import { signedHeaders } from '../subscriptions/webhooks/signing.ts';

/** Delays before attempts 2 to 10 after a failure (attempt 1 is immediate): about 3 days in all. */
export const retrySchedule = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000);
export const maxAttempts = retrySchedule.length + 1;
/** An endpoint failing without a success for this long is disabled. */
export const failingDisableMs = 5 * 86_400_000;
/** An attempt is held this long by the worker sending it: past the receiver's deadline, so a live worker never loses it. */
const leaseMs = (services: Services) => 2 * services.config.webhooks.timeoutMs;
const dispatchBatch = 500;
const deliverBatch = 20;
const checkpoint = 'webhooks';

function wants(endpoint: WebhookEndpoint, event: LoggedEvent): boolean {
  // webhook.test goes only to the endpoint it tests, monitor.matched only to its monitor's
  // endpoint: their deliveries are written with the event.
  if (event.type === 'webhook.test' || event.type === 'monitor.matched') return false;
  if (!isNewTo({ start: logStart, createdAt: endpoint.createdAt }, event)) return false;
  if (event.orgId === null) return isPublicEventType(event.type) && endpoint.eventTypes.includes(event.type);
  return endpoint.orgId === event.orgId && (endpoint.eventTypes.includes('*') || endpoint.eventTypes.includes(event.type));
}

/** Step 1; returns how many events it read (0: none waiting, or another instance is dispatching). */
export async function dispatchEvents(services: Services): Promise<number> {
  return services.prisma.$transaction(async (tx) => {
    const held = await holdCheckpoint(tx, checkpoint);
    if (!held) return 0;
    const events = await readAllEvents(tx, held, dispatchBatch);
    if (!events.length) return 0;
    const orgIds = [...new Set(events.map((e) => e.orgId).filter((id): id is string => id !== null))];
    const publicTypes = [...new Set(events.filter((e) => e.orgId === null).map((e) => e.type))];
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { status: 'enabled', deletedAt: null, OR: [{ orgId: { in: orgIds } }, { eventTypes: { hasSome: publicTypes } }] },
    });
    const attempts = events.flatMap((event) => endpoints.filter((endpoint) => wants(endpoint, event)).map((endpoint) => attemptRow(endpoint, event)));
    if (attempts.length) await tx.webhookDelivery.createMany({ data: attempts });
    const last = events[events.length - 1]!.position;
    await tx.logCheckpoint.update({ where: { name: checkpoint }, data: { txid: last.txid, seq: last.seq } });
    return events.length;
  });
}

/** Step 2; returns how many attempts it made. */
export async function deliverDue(services: Services): Promise<number> {
  // Times are stored as UTC wall times (timestamp without zone), as Prisma writes them: compare with
  // the UTC wall time now, whatever the database session's zone.
  const claimed = await services.prisma.$queryRaw<WebhookDelivery[]>`
    UPDATE "WebhookDelivery" SET "lockedUntil" = (now() AT TIME ZONE 'UTC') + ${`${leaseMs(services)} milliseconds`}::interval
    WHERE "id" IN (
      SELECT "id" FROM "WebhookDelivery"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= (now() AT TIME ZONE 'UTC') AND ("lockedUntil" IS NULL OR "lockedUntil" < (now() AT TIME ZONE 'UTC'))
        -- a suspended organization's attempts wait, neither sent nor failed, until it is unsuspended
        AND "orgId" NOT IN (SELECT "id" FROM "Organization" WHERE "suspendedAt" IS NOT NULL)
      ORDER BY "nextAttemptAt" LIMIT ${deliverBatch} FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  if (!claimed.length) return 0;
  // the batch's endpoints and events, read once for all of its attempts
  const [endpoints, events] = await Promise.all([
    services.prisma.webhookEndpoint.findMany({ where: { id: { in: [...new Set(claimed.map((d) => d.endpointId))] } } }),
    services.prisma.event.findMany({ where: { id: { in: [...new Set(claimed.map((d) => d.eventId))] } } }),
  ]);
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  await Promise.all(claimed.map((delivery) => attemptDelivery(services, delivery, endpointById.get(delivery.endpointId), eventById.get(delivery.eventId))));
  return claimed.length;
}

async function attemptDelivery(services: Services, delivery: WebhookDelivery, endpoint: WebhookEndpoint | undefined, event: Event | undefined): Promise<void> {
  const { prisma } = services;
  if (!endpoint || endpoint.deletedAt || endpoint.status !== 'enabled' || !event) {
    const error = !event ? 'the event is past retention' : endpoint?.deletedAt ? 'the endpoint was deleted' : 'the endpoint is disabled';
    await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'failed', error, attemptedAt: new Date(), lockedUntil: null } });
    return;
  }
  const body = JSON.stringify(servedEvent(event));
  const headers = signedHeaders(signingSecrets(services.webhooks.key, endpoint), event.id, body);
  const attemptedAt = new Date();
  const result = await sendWebhook({ url: endpoint.url, headers, body, timeoutMs: services.config.webhooks.timeoutMs, allowedHosts: services.webhooks.allowedHosts });
  const outcome = { attemptedAt, responseStatus: result.status, responseExcerpt: result.bodyExcerpt || null, durationMs: Math.round(result.durationMs), error: result.error, lockedUntil: null };

  if (result.status !== null && result.status >= 200 && result.status < 300) {
    const succeeded = prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { ...outcome, status: 'succeeded' } });
    if (!endpoint.failingSince) await succeeded;
    else await prisma.$transaction([succeeded, prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } })]);
    return;
  }
  const reason = result.error ?? `the receiver answered ${result.status}${result.status && result.status >= 300 && result.status < 400 ? ' (redirects are not followed)' : ''}`;
  if (result.status === 410) {
    await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { ...outcome, status: 'failed', error: reason } });
    await disableEndpoint(services, endpoint, 'gone', `the receiver answered 410 Gone to ${delivery.id}`);
    return;
  }
  const failingSince = endpoint.failingSince ?? attemptedAt;
  if (attemptedAt.getTime() - failingSince.getTime() >= failingDisableMs) {
    await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { ...outcome, status: 'failed', error: reason } });
    await disableEndpoint(services, endpoint, 'failing', `no successful delivery since ${failingSince.toISOString()}`);
    return;
  }
  if (delivery.attempt >= maxAttempts) {
    const event = await prisma.$transaction(async (tx) => {
      await tx.webhookDelivery.update({ where: { id: delivery.id }, data: { ...outcome, status: 'failed', error: reason } });
      await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince } });
      return recordEvent(tx, 'delivery.exhausted', endpoint.orgId, { webhookEndpointId: endpoint.id, deliveryId: delivery.id, eventId: delivery.eventId, eventType: delivery.eventType, attempts: delivery.attempt });
    });
    await publishAll(services.bus, [event]);
    return;
  }
  const delay = nextDelayMs(delivery.attempt, result.status, result.headers['retry-after'], services.webhooks.retryScale);
  await prisma.$transaction([
    prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { ...outcome, status: 'retrying', error: reason } }),
    prisma.webhookDelivery.create({
      data: attemptRow(endpoint, { id: delivery.eventId, type: delivery.eventType }, { attempt: delivery.attempt + 1, replayOf: delivery.replayOf, dueAt: new Date(Date.now() + delay) }),
    }),
    prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince } }),
  ]);
}

/**
 * The wait before the attempt after `attempt`: the schedule's, with ±10 % jitter so that retries
 * to one receiver spread out; at least what a 429 or 503 asked for in Retry-After (up to a day).
 * `scale` shrinks the schedule (tests only).
 */
export function nextDelayMs(attempt: number, status: number | null, retryAfter: string | undefined, scale = 1): number {
  const base = retrySchedule[attempt - 1]! * scale;
  const jittered = base * (0.9 + Math.random() * 0.2);
  if (status !== 429 && status !== 503 || !retryAfter) return jittered;
  const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : (Date.parse(retryAfter) - Date.now()) / 1000;
  const asked = Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), 86_400) * 1000 : 0;
  return Math.max(jittered, asked * scale);
}

export interface WebhookWorker {
  /** runs both steps until nothing is left to do now (tests and benchmarks) */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** Polls every `pollMs`, and at once whenever an event is published on the bus; purges expired events hourly. */
export function startWebhookWorker(services: Services, pollMs: number): WebhookWorker {
  const abort = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  const cycle = async () => {
    do {
      again = false;
      try {
        // monitors first: the deliveries of their matches go out in the same cycle. Once stopped,
        // a batch under way finishes and no new one starts: a shutdown waits for the attempts
        // in flight, not for the whole backlog (the next instance claims the rest).
        // A turn of the event loop after each batch: an ingest writes thousands of events, and
        // their batches back to back would hold the requests of an embedded database's server.
        const going = () => !abort.signal.aborted;
        while (going() && (await dispatchMonitorMatches(services)) > 0) await eventLoopTurn();
        while (going() && (await dispatchEvents(services)) > 0) await eventLoopTurn();
        while (going() && (await deliverDue(services)) > 0) await eventLoopTurn();
        while (going() && (await deliverEmails(services)) > 0) await eventLoopTurn();
      } catch (error) {
        if (!abort.signal.aborted) services.logger.warn({ err: (error as Error).message }, 'webhook worker cycle failed; retrying on the next one');
      }
    } while (again && !abort.signal.aborted);
  };
  const wake = () => {
    if (abort.signal.aborted) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = cycle().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void wake(), pollMs);
  timer.unref();
  // the instance's other chore on the log, on its own timer so that it never delays a delivery
  const purge = startEventPurge(services.prisma, services.logger);
  void (async () => {
    for await (const _event of services.bus.subscribe(abort.signal)) void wake();
  })();
  void wake();
  return {
    drain: wake, // a wake during a cycle runs it once more, and resolves when it has
    async stop() {
      abort.abort();
      clearInterval(timer);
      await Promise.all([running, purge.stop()]);
    },
  };
}
