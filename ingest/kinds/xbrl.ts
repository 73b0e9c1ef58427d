// XBRL: companyfacts JSON and instance documents.
import { parseCompanyFacts } from '../parsers/xbrl/companyFacts.ts';
import { parseXbrlInstance } from '../parsers/xbrl/xbrlInstance.ts';
import { namedInPath } from '../classify.ts';
import { handler } from '../handlers.ts';
import { upsertEntity } from '../load/entities.ts';
import { loadFacts } from '../load/facts.ts';

export const companyFactsHandler = handler({
  parse: ({ text }) => parseCompanyFacts(text),
  async loadInSteps(step, parsed) {
    await step((tx) => upsertEntity(tx, { cik: parsed.cik, name: parsed.entityName }));
    return { records: await loadFacts(step, parsed.facts, parsed.concepts, 'companyfacts', parsed.entityName), events: [] };
  },
});

export const xbrlInstanceHandler = handler({
  parse: ({ key }) => {
    const named = namedInPath(key);
    if (!named.accessionNumber) throw new Error('an XBRL instance needs its accession number in the file name to be cited');
    return named as { accessionNumber: string; form: string | null };
  },
  // the instance is parsed against the filing the index holds, before the transaction
  async prepare(db, named, { text, key }) {
    const filing = await db.filing.findUnique({ where: { accessionNumber: named.accessionNumber }, select: { form: true, filedAt: true } });
    const form = filing?.form ?? key.match(/_(10-K|10-Q|20-F|40-F)_/)?.[1] ?? 'unknown';
    return parseXbrlInstance(text, { accessionNumber: named.accessionNumber, form, filedAt: filing?.filedAt ? filing.filedAt.toISOString().slice(0, 10) : null });
  },
  async loadInSteps(step, parsed) {
    return { records: await loadFacts(step, parsed.facts, parsed.concepts, 'xbrl_instance'), events: [] };
  },
});
