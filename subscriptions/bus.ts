// Delivers canonical events to live subscribers: through Redis pub/sub when several instances
// share a Redis, in process otherwise. The event log (table Event) stays the source of truth;
// the bus only makes its new rows arrive without polling.
import { EventEmitter, on } from 'node:events';
import type { Logger } from '../core/logger.ts';
import { redisSpanAttributes, type Redis } from '../core/redis.ts';
import { inSpan, SpanKind } from '../core/tracing.ts';

export interface BusEvent {
  id: string;
  seq: string;
  type: string;
  orgId: string | null;
  payload: unknown;
  createdAt: string;
}

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /** events from now on, until the signal aborts */
  subscribe(signal: AbortSignal): AsyncIterable<BusEvent>;
  close(): Promise<void>;
}

const channel = 'ids:events';

class LocalBus implements EventBus {
  protected readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: BusEvent) {
    this.emitter.emit('event', event);
  }

  async *subscribe(signal: AbortSignal): AsyncIterable<BusEvent> {
    try {
      for await (const [event] of on(this.emitter, 'event', { signal })) yield event as BusEvent;
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }

  async close() {
    this.emitter.removeAllListeners();
  }
}

class RedisBus extends LocalBus {
  constructor(private readonly publisher: Redis, private readonly subscriber: Redis, private readonly logger: Logger) {
    super();
    subscriber.on('message', (_channel: string, message: string) => this.emitter.emit('event', JSON.parse(message)));
    // Without an offline queue a subscribe before the connection is up would be dropped, so
    // (re)subscribe whenever the connection becomes ready.
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).catch((error: Error) => logger.warn({ err: error.message }, 'event bus subscribe failed'));
    });
  }

  override async publish(event: BusEvent) {
    try {
      await inSpan('redis PUBLISH', redisSpanAttributes, () => this.publisher.publish(channel, JSON.stringify(event)), SpanKind.CLIENT);
    } catch (error) {
      // Live subscribers of other instances miss it; the event log still has it.
      this.logger.warn({ err: (error as Error).message, eventId: event.id }, 'event bus publish failed; delivering locally only');
      await super.publish(event);
    }
  }

  override async close() {
    await super.close();
    this.subscriber.disconnect();
  }
}

export function createEventBus(redis: { publisher: Redis; subscriber: Redis } | undefined, logger: Logger): EventBus {
  return redis ? new RedisBus(redis.publisher, redis.subscriber, logger) : new LocalBus();
}
