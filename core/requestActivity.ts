// Requests being answered by this process. On the embedded database every statement runs on one
// connection, so a request that reads in two steps waited a whole ingest item between them when
// the item's transaction took the connection first; a background ingest asks `settled` before
// each item and lets those requests finish.

export class RequestActivity {
  private inFlight = 0;
  private waiting: (() => void)[] = [];

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight--;
    if (this.inFlight > 0) return;
    for (const resolve of this.waiting) resolve();
    this.waiting = [];
  }

  get count(): number {
    return this.inFlight;
  }

  /** Resolves when no request is being answered. */
  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /**
   * Resolves when no request is being answered, or after `maxMs` (steady traffic must not stop
   * the caller for good); a wait that times out leaves no waiter behind.
   */
  settled(maxMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      this.waiting.push(done);
    });
  }
}

/**
 * One turn of the event loop. The embedded database answers in promises already settled, so a
 * chain of statements (an ingest's steps, a worker's batches) holds every request that arrived
 * meanwhile unread until the chain ends; a turn between links lets them in.
 */
export function eventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
