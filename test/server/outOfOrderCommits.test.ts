// A reader of the event log never skips an event, even when two transactions commit in the
// opposite order to the one they wrote in. Two sessions writing at once need a database server
// (embedded PGlite runs one transaction at a time), so this suite runs with DATABASE_URL.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents, logStart, type LogPosition, type LoggedEvent } from '../../subscriptions/eventLog.ts';
import { scratchDatabase, startTestService, type TestService } from '../harness.ts';

let t: TestService;
let database: Awaited<ReturnType<typeof scratchDatabase>>;

beforeAll(async () => {
  database = await scratchDatabase();
  t = await startTestService({ database: database.target });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const filter = { orgId: 'org_none', types: ['*'], publicTypes: ['filing.added'] };
const filing = (accessionNumber: string) => ({ accessionNumber, cik: '0000000001', form: '8-K', filedAt: null, tickers: [] });

async function readAll(from: LogPosition): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let position = from;
  for (;;) {
    const batch = await readEvents(t.service.services.prisma, filter, position, 2);
    if (!batch.length) return all;
    all.push(...batch);
    position = batch[batch.length - 1]!.position;
  }
}

describe('the event log under concurrent writers', () => {
  it('never skips an event whose transaction commits after a later one', async () => {
    const connect = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      return client;
    };
    const [early, late] = [await connect(), await connect()];
    try {
      const seen = await readAll(logStart);
      const cursor = seen.length ? seen[seen.length - 1]!.position : logStart;
      const insert = (client: pg.Client, accession: string) =>
        client.query(`INSERT INTO "Event" ("id", "type", "orgId", "payload") VALUES ($1, 'filing.added', NULL, $2) RETURNING "seq"`, [`evt_${accession}`, JSON.stringify(filing(accession))]);

      await early.query('BEGIN');
      const a = await insert(early, '0000000002-24-000001'); // written first: the smaller seq
      await late.query('BEGIN');
      const b = await insert(late, '0000000002-24-000002');
      await late.query('COMMIT'); // committed first
      expect(BigInt(a.rows[0].seq)).toBeLessThan(BigInt(b.rows[0].seq));

      // The later event is committed, but an earlier transaction is still open: nothing is served yet,
      // where a reader paging by seq would serve it and then move past the earlier one.
      expect(await readEvents(t.service.services.prisma, filter, cursor, 100)).toEqual([]);

      await early.query('COMMIT');
      // Events become visible once no older transaction is open anywhere on the server; suites
      // running beside this one may hold one for a moment, so the reader waits as a poller would.
      let after: LoggedEvent[] = [];
      for (let attempt = 0; attempt < 100 && after.length < 2; attempt++) {
        after = await readAll(cursor);
        if (after.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(after.map((e) => e.id)).toEqual(['evt_0000000002-24-000001', 'evt_0000000002-24-000002']);
    } finally {
      await early.end();
      await late.end();
    }
  });
});
