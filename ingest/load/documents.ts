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

/** Replaces the filing's stored document; runs in the transaction that writes its sections. */
export async function storeFilingDocument(tx: Tx, accessionNumber: string, document: StoredDocument): Promise<void> {
  const { fileName, contentType, sha256, size, content } = document;
  const data = { fileName, contentType, sha256, size, content, storedAt: new Date() };
  await tx.filingDocument.upsert({ where: { accessionNumber }, create: { accessionNumber, ...data }, update: data });
}

/**
 * Whether an unchanged item must still be loaded: a periodic or current report ingested before
 * documents were stored has sections or events but no document, and the reader needs it.
 */
export async function documentMissing(prisma: Pick<Tx, 'filing'>, kind: string, sourceKey: string): Promise<boolean> {
  if (kind !== 'periodic_report' && kind !== 'current_report') return false;
  return (await prisma.filing.count({ where: { documentSourceKey: sourceKey, document: null } })) > 0;
}
