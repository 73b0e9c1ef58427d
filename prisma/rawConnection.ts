// The connection beneath Prisma, for what Prisma cannot send (COPY, a bulk ingest's blobs, a
// schema in one step): a PostgreSQL URL or the embedded PGlite. A leaf module, so that anything
// under prisma/ may name it without importing the adapter.
import type { PGlite } from '@electric-sql/pglite';

export type RawConnection = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite };
