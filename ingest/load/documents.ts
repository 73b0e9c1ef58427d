// A filing's primary document, kept as read (gzip) so that the reader can render it later without
// the source: a corpus folder moves, the SEC limits how often it may be asked.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Tx } from '../handlers.ts';
import { looksLikeHtml } from '../parsers/documents/html.ts';

export interface StoredDocument {
  fileName: string;
  contentType: 'text/html' | 'text/plain';
  sha256: string;
  size: number;
  content: Uint8Array<ArrayBuffer>;
}

/** Compressed and hashed outside the transaction (the parse step): megabytes of text take tens of milliseconds. */
export function packDocument(text: string, fileName: string): StoredDocument {
  const bytes = Buffer.from(text, 'utf8');
  const gzipped = gzipSync(bytes);
  return {
    fileName,
    contentType: looksLikeHtml(text) ? 'text/html' : 'text/plain',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    content: new Uint8Array(gzipped.buffer.slice(gzipped.byteOffset, gzipped.byteOffset + gzipped.byteLength) as ArrayBuffer),
  };
}

/**
 * Replaces the filing's stored document. The bytes travel as base64 text the database decodes: as
 * a bytea parameter, the embedded database's driver spent a tenth of a second and more on a
 * 400 KB document (writing it out byte by byte), which every read waited for.
 */
export async function storeFilingDocument(tx: Tx, accessionNumber: string, document: StoredDocument): Promise<void> {
  const { fileName, contentType, sha256, size, content } = document;
  const base64 = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('base64');
  await tx.$executeRaw`
    INSERT INTO "FilingDocument" ("accessionNumber", "fileName", "contentType", "sha256", "size", "content", "storedAt")
    VALUES (${accessionNumber}, ${fileName}, ${contentType}, ${sha256}, ${size}, decode(${base64}, 'base64'), ${new Date().toISOString()}::timestamp(3))
    ON CONFLICT ("accessionNumber") DO UPDATE SET "fileName" = excluded."fileName", "contentType" = excluded."contentType", "sha256" = excluded."sha256",
      "size" = excluded."size", "content" = excluded."content", "storedAt" = excluded."storedAt"`;
}

/**
 * Whether an unchanged item must still be loaded: a periodic or current report ingested before
 * documents were stored has sections or events but no document, and the reader needs it.
 */
export async function documentMissing(prisma: Pick<Tx, 'filing'>, kind: string, sourceKey: string): Promise<boolean> {
  if (kind !== 'periodic_report' && kind !== 'current_report') return false;
  return (await prisma.filing.count({ where: { documentSourceKey: sourceKey, document: null } })) > 0;
}
