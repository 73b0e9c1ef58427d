// One handler per item kind: a pure parse, the reads it needs, then a load: inside the item's
// transaction, or, for a large item, in steps of their own.
import type { Prisma } from '../prisma/generated/client/client.ts';
import type { Db } from '../prisma/db.ts';
import type { BusEvent } from '../subscriptions/bus.ts';
import type { ItemKind } from './classify.ts';

export type Tx = Prisma.TransactionClient;

export interface ItemInput {
  key: string;
  name: string;
  text: string;
  kind: ItemKind;
  /** the filing's form when the index knows it (SEC archive documents are named by accession only) */
  form: string | null;
}

export interface LoadOutcome {
  /** rows written or updated */
  records: number;
  /** canonical events written in the transaction, published after it commits */
  events: BusEvent[];
  /** what was left out of an item that otherwise went in (junk lines, say): recorded, listable */
  warnings?: string[];
}

export interface Handler<P = unknown, Q = P> {
  parse(input: ItemInput): P;
  /**
   * What needs the database only to read (the filing the index holds, and the parse that depends
   * on it), before the item's transaction opens: on the embedded database a transaction holds the
   * one connection every read waits for, so it should only write.
   */
  prepare?(db: Db, parsed: P, input: ItemInput): Promise<Q>;
  /** the whole item in one transaction, with its IngestItem row */
  load?(tx: Tx, prepared: Q, input: ItemInput): Promise<LoadOutcome>;
  /**
   * A large item (thousands of facts, filings or market rows) in steps. Beside a server's
   * requests each is a transaction of its own that leaves the data whole (rows added, never a
   * company's derived rows half replaced), and the IngestItem row is written after the last, so
   * that an item cut short is loaded again; otherwise they are all the item's one transaction.
   */
  loadInSteps?(step: Step, prepared: Q, input: ItemInput): Promise<LoadOutcome>;
}

/**
 * Runs `write` in a transaction of its own. On the embedded database every read waits for the
 * one connection a transaction holds: a large item written in steps of a few tens of
 * milliseconds, with the reads waiting let through between them, never keeps a read waiting for
 * the whole item.
 */
export type Step = <T>(write: (tx: Tx) => Promise<T>) => Promise<T>;

/** Steps that are all parts of the caller's one transaction. */
export const withinTransaction = (tx: Tx): Step => (write) => write(tx);

export function handler<P, Q = P>(h: Handler<P, Q>): Handler<unknown, unknown> {
  return h as Handler<unknown, unknown>;
}

/** Raised for an item that is not an error but has nothing for this ingest (market data, say). */
export class NotForThisIngest extends Error {}
