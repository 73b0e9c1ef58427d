// Structured XML forms: each parser returns a ParsedForm; all are stored the same way.
import { namedInPath } from '../classify.ts';
import { handler, withinTransaction } from '../handlers.ts';
import { padCik } from '../../core/rows.ts';
import { ensureEntities } from '../load/entities.ts';
import { markDocumentIngested, upsertFilings } from '../load/filings.ts';
import { saveFormRecord } from '../load/forms.ts';
import type { ParsedForm } from '../parsers/records.ts';
import type { Tx } from '../handlers.ts';

const primaryRoles = ['issuer', 'fund', 'manager', 'filer', 'subject'] as const;

export function formHandler(parse: (text: string, name: string) => ParsedForm<unknown>) {
  return handler({
    parse: ({ text, name }) => parse(text, name),
    async load(tx, parsed, { key }) {
      let form = parsed;
      const accessionNumber = form.accessionNumber ?? namedInPath(key).accessionNumber;
      const primary = primaryRoles.map((role) => form.parties.find((p) => p.role === role && p.cik)).find(Boolean) ?? form.parties.find((p) => p.cik);
      const cik = primary?.cik ? padCik(primary.cik) : null;
      await ensureEntities(tx, form.parties.map((p) => ({ cik: p.cik, name: p.name, kind: p.role === 'reporting_owner' ? 'insider' : p.role === 'fund' ? 'fund' : p.role === 'manager' ? 'manager' : 'issuer' })));
      let events: Awaited<ReturnType<typeof upsertFilings>>['events'] = [];
      if (!form.filedAt) form = await withFilingDate(tx, form, accessionNumber);
      if (accessionNumber && cik && form.filedAt && !form.isSample) {
        events = (await upsertFilings(withinTransaction(tx), [{ accessionNumber, cik, form: form.formType, filedAt: form.filedAt, reportDate: form.periodOfReport }])).events;
        await markDocumentIngested(tx, accessionNumber, key);
      }
      await saveFormRecord(tx, { ...form, accessionNumber, cik }, key);
      return { records: 1, events };
    },
  });
}

/**
 * A document that states no filing date (a Form D or C notice without its submission header) takes
 * it from the EDGAR index or submissions held for its accession; without those it stays null and
 * the record says why, rather than passing off another date (the signature's) as the filing's.
 */
async function withFilingDate(tx: Tx, form: ParsedForm<unknown>, accessionNumber: string | null): Promise<ParsedForm<unknown>> {
  const filing = accessionNumber ? await tx.filing.findUnique({ where: { accessionNumber }, select: { filedAt: true } }) : null;
  if (filing?.filedAt) return { ...form, filedAt: filing.filedAt.toISOString().slice(0, 10) };
  const reason = accessionNumber
    ? 'The document states no filing date, and its accession is not in the EDGAR indexes or submissions held.'
    : 'The document states no filing date or accession number (a primary document without its submission).';
  return { ...form, data: { ...(form.data as object), filedAtReason: reason } };
}
