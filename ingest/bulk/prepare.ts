// An archive member made ready for its load: its digest, whether an earlier run holds it
// unchanged, and its rows parsed and encoded as COPY text. Pure (bytes in, plain data out), so
// that it runs on the prepare threads (preparePool.ts) as well as inline.
import { createHash } from 'node:crypto';
import { prepareCompanyFacts, type CompanyFactsRows } from './companyFacts.ts';
import type { BulkKind } from './keys.ts';
import { prepareSubmissions, type SubmissionsRows } from './submissions.ts';

export interface MemberTask {
  kind: BulkKind;
  /** the member's file name, and its IngestItem key */
  name: string;
  key: string;
  bytes: Uint8Array;
  /** the digest an earlier run loaded it with, if that run did not fail it: the same digest is skipped unparsed */
  heldSha256: string | null;
}

export type PreparedRows =
  | { sha256: string; outcome: 'skipped' }
  | { sha256: string; outcome: 'failed'; reason: string }
  | { sha256: string; outcome: 'prepared'; kind: 'companyfacts'; rows: CompanyFactsRows }
  | { sha256: string; outcome: 'prepared'; kind: 'submissions'; rows: SubmissionsRows };

export function prepareMember({ kind, name, key, bytes, heldSha256 }: MemberTask): PreparedRows {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 === heldSha256) return { sha256, outcome: 'skipped' };
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (kind === 'companyfacts') return { sha256, outcome: 'prepared', kind, rows: prepareCompanyFacts(text) };
    return { sha256, outcome: 'prepared', kind, rows: prepareSubmissions(text, name, key) };
  } catch (error) {
    return { sha256, outcome: 'failed', reason: firstLine(error) };
  }
}

export function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 500) : String(error);
}
