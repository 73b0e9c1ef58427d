// Who prepares the archive members (prepare.ts) while the connections write: the bulk ingest's
// own thread, one member at a time, or a pool of threads (piscina) preparing several at once.
// Parsing and encoding a member took a core by itself while the two COPY connections kept half
// of another busy: on its own thread, the writing no longer waits for the parsing.
import { Piscina } from 'piscina';
import { assertEntryExists, threadEntry } from '../../core/threadEntry.ts';
import { firstLine, prepareMember, type MemberTask, type PreparedRows } from './prepare.ts';

export interface MemberPreparer {
  /** members in preparation at once: the threads', and the one being read meanwhile */
  readonly concurrency: number;
  prepare(task: MemberTask): Promise<PreparedRows>;
  close(): Promise<void>;
}

export const inlinePreparer: MemberPreparer = {
  concurrency: 1,
  prepare: async (task) => prepareMember(task),
  close: async () => {},
};

/**
 * A prepare thread's heap. Its young generation holds a member's parsed JSON for as long as the
 * member is encoded (in V8's default size it outlived scavenges into the old generation, whose
 * collections then took a large share of the load; 32 MB measured 10% slower than 48). Without
 * a cap on the old generation V8 let each thread grow until the ingest held about a gigabyte
 * (949-1,078 MiB at factor 30, against 708-733 with this cap and 635-649 preparing inline).
 */
const threadHeap = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 1024 };

export function threadPreparer(threads: number): MemberPreparer {
  const entry = threadEntry(import.meta.url, './prepareWorker.ts', 'bulk-prepare-worker.js');
  assertEntryExists(entry, 'bulk prepare worker');
  const pool = new Piscina<MemberTask, PreparedRows>({ ...entry, minThreads: threads, maxThreads: threads, resourceLimits: threadHeap });
  return {
    concurrency: threads + 1,
    prepare: (task) =>
      // a member a thread died on is recorded as failed, as one that would not parse
      pool.run(task, { transferList: ownsItsMemory(task.bytes) ? [task.bytes.buffer as ArrayBuffer] : [] }).catch((error: unknown) => ({ sha256: '', outcome: 'failed' as const, reason: `its prepare thread failed: ${firstLine(error)}` })),
    close: () => pool.destroy(),
  };
}

/** Bytes that are the whole of their buffer move to the thread; a view into a shared pool of small buffers is copied. */
function ownsItsMemory(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
}
