// How a bulk ingest names an archive member in IngestItem: as the folder ingest names the same
// SEC file (companyfacts/CIK##########.json, submissions/CIK##########-submissions-001.json),
// so that a file already ingested either way, unchanged, is not written again.

/** The archives a bulk folder may hold, in load order (whose filings come before whose facts, as the item ingest's loadOrder). */
export const bulkKinds = ['submissions', 'companyfacts'] as const;
export type BulkKind = (typeof bulkKinds)[number];

export const archiveName = (kind: BulkKind) => `${kind}.zip`;

export const memberKey = (kind: BulkKind, name: string) => `${kind}/${name}`;

/** The company an archive member is about, from its name. */
export function cikOfMember(key: string): string | null {
  return key.match(/CIK(\d{10})/)?.[1] ?? null;
}
