// Structured XML forms: each parser returns a ParsedForm; all are stored the same way.
import { namedInPath } from '../classify.ts';
import { handler } from '../handlers.ts';
import { padCik } from '../load/common.ts';
import { ensureEntities } from '../load/entities.ts';
import { markDocumentIngested, upsertFilings } from '../load/filings.ts';
import { saveFormRecord } from '../load/forms.ts';
import type { ParsedForm } from '../parsers/records.ts';

const primaryRoles = ['issuer', 'fund', 'manager', 'filer', 'subject'] as const;

export function formHandler(parse: (text: string, name: string) => ParsedForm<unknown>) {
  return handler({
    parse: ({ text, name }) => parse(text, name),
    async load(tx, form, { key }) {
      const accessionNumber = form.accessionNumber ?? namedInPath(key).accessionNumber;
      const primary = primaryRoles.map((role) => form.parties.find((p) => p.role === role && p.cik)).find(Boolean) ?? form.parties.find((p) => p.cik);
      const cik = primary?.cik ? padCik(primary.cik) : null;
      await ensureEntities(tx, form.parties.map((p) => ({ cik: p.cik, name: p.name, kind: p.role === 'reporting_owner' ? 'insider' : p.role === 'fund' ? 'fund' : p.role === 'manager' ? 'manager' : 'issuer' })));
      let events: Awaited<ReturnType<typeof upsertFilings>>['events'] = [];
      if (accessionNumber && cik && form.filedAt && !form.isSample) {
        events = (await upsertFilings(tx, [{ accessionNumber, cik, form: form.formType, filedAt: form.filedAt, reportDate: form.periodOfReport }])).events;
        await markDocumentIngested(tx, accessionNumber, key);
      }
      await saveFormRecord(tx, { ...form, accessionNumber, cik }, key);
      return { records: 1, events };
    },
  });
}
