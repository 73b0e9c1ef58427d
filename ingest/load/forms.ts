// Structured records (forms, offering cover pages, proxy statements): one row each, keyed by the
// accession number, or by a digest of the source for a document that does not carry one.
import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { PartyRef } from '../parsers/records.ts';
import type { Tx } from '../handlers.ts';
import { day, digest, orderDate } from '../../core/rows.ts';
import { recordEvents } from '../../subscriptions/events.ts';
import { materializeDilution } from '../../derived/dilution/materialize.ts';

export interface FormRecordFields {
  accessionNumber: string | null;
  family: string;
  formType: string;
  cik: string | null;
  filedAt: string | null;
  periodOfReport?: string | null;
  /**
   * the date a document gives itself (a preliminary prospectus's "dated December 12, 2024"): where it
   * states no filing date, the record is ordered by this date rather than last
   */
  documentDate?: string | null;
  isSample?: boolean;
  parties: PartyRef[] | { cik: string | null; name: string | null; role: string }[];
  data: unknown;
}

/**
 * A document and the submission that contains it are one filing: a primary document read on its
 * own (no accession) is not stored beside the full submission of the same form, filer and period,
 * and a submission read after its document replaces it.
 */
export async function saveFormRecord(tx: Tx, fields: FormRecordFields, sourceKey: string): Promise<void> {
  const sameFiling = { family: fields.family, formType: fields.formType, cik: fields.cik, periodOfReport: day(fields.periodOfReport ?? null) };
  if (fields.cik && sameFiling.periodOfReport) {
    if (!fields.accessionNumber && (await tx.formRecord.count({ where: { ...sameFiling, accessionNumber: { not: null } } }))) return;
    if (fields.accessionNumber) await tx.formRecord.deleteMany({ where: { ...sameFiling, accessionNumber: null } });
  }
  const id = fields.accessionNumber ?? `doc_${digest(sourceKey)}`;
  const filedAt = day(fields.filedAt);
  const periodOfReport = day(fields.periodOfReport ?? null);
  const row = {
    accessionNumber: fields.accessionNumber,
    family: fields.family,
    formType: fields.formType,
    cik: fields.cik,
    filedAt,
    periodOfReport,
    orderedAt: orderDate(filedAt, periodOfReport, day(fields.documentDate ?? null)),
    isSample: fields.isSample ?? false,
    parties: fields.parties as unknown as Prisma.InputJsonValue,
    data: fields.data as Prisma.InputJsonValue,
    sourceKey,
  };
  const known = await tx.formRecord.findUnique({ where: { id }, select: { id: true } });
  await tx.formRecord.upsert({ where: { id }, create: { id, ...row }, update: row });
  // an offering document's terms are dilution records of its issuer
  if (fields.family === 'OFFERING' && fields.cik) await materializeDilution(tx, [fields.cik]);
  if (!known) {
    await recordEvents(tx, [{ type: 'form.added', orgId: null, payload: { id, accessionNumber: fields.accessionNumber, family: fields.family, formType: fields.formType, cik: fields.cik, filedAt: fields.filedAt } }]);
  }
}
