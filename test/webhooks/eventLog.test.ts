// The event log is read in a stable order: reading again from any position returns the same
// events in the same order. (test/server/outOfOrderCommits.test.ts: no event is ever skipped.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents, logStart, type LogPosition, type LoggedEvent } from '../../subscriptions/eventLog.ts';
import { recordEvent } from '../../subscriptions/events.ts';
import { eventually, scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;

beforeAll(async () => {
  database = await scratchDatabase(); // a log of the test's own: no other suite writes to it
  t = await startTestService({ database: database.target });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const filter = { orgId: 'org_none', types: ['*'], publicTypes: ['filing.added'] };

/** Reads the whole log from `from`, a page of `page` at a time, as a stream client would. */
async function readAll(from: LogPosition, page = 2): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let position = from;
  for (;;) {
    const batch = await readEvents(t.service.services.prisma, filter, position, page);
    if (!batch.length) return all;
    all.push(...batch);
    position = batch[batch.length - 1]!.position;
  }
}

const filing = (accessionNumber: string) => ({ accessionNumber, cik: '0000000001', form: '8-K', filedAt: null, tickers: [] });

describe('the event log', () => {
  it('replays the same events in the same order from any position', async () => {
    const { prisma } = t.service.services;
    for (let i = 0; i < 7; i += 1) await prisma.$transaction((tx) => recordEvent(tx, 'filing.added', null, filing(`0000000001-24-00000${i}`)));
    // A reader sees an event once every transaction older than its own has ended; the service's
    // workers run short transactions of their own, so the last events may show a moment later.
    const first = await eventually('the seven events', async () => {
      const read = await readAll(logStart);
      return read.length === 7 ? read : undefined;
    });
    expect(first.map((e) => (e.payload as { accessionNumber: string }).accessionNumber)).toEqual(Array.from({ length: 7 }, (_, i) => `0000000001-24-00000${i}`));
    for (let from = 0; from < first.length; from += 1) {
      const again = await readAll(first[from]!.position, 3);
      expect(again.map((e) => e.id)).toEqual(first.slice(from + 1).map((e) => e.id));
    }
  });
});
