// Fund reports (Form N-CSR, N-CSRS): the shareholder letter of Item 1 as the filing's sections
// (`letter`, `letter_1`…, full-text searchable like every section), the document for the reader,
// and a record (family NCSR) of what the sections alone do not say: the report's shape, period,
// the funds it names and who signed the letter. The filing is known from its registrant's
// submissions, which the SEC source fetches before the document.
import { namedInPath } from '../classify.ts';
import { handler } from '../handlers.ts';
import { markDocumentIngested } from '../load/filings.ts';
import { packDocument, storeFilingDocument } from '../load/documents.ts';
import { saveFormRecord } from '../load/forms.ts';
import { parseShareholderLetter } from '../parsers/funds/shareholderLetter.ts';

export const fundLetterFamily = 'NCSR';

export const fundReportHandler = handler({
  parse: ({ key, name, text }) => ({ accessionNumber: namedInPath(key).accessionNumber, letter: parseShareholderLetter(text), document: packDocument(text, name) }),
  async load(tx, { accessionNumber, letter, document }, { key }) {
    const filing = accessionNumber ? await tx.filing.findUnique({ where: { accessionNumber } }) : null;
    if (!filing) throw new Error(`fund report ${accessionNumber ?? key} is not a filing the database knows; ingest its registrant's submissions first`);
    await tx.section.deleteMany({ where: { accessionNumber: filing.accessionNumber } });
    await tx.section.createMany({
      data: letter.sections.map((s) => ({ accessionNumber: filing.accessionNumber, key: s.key, title: s.title, text: s.text, ordinal: s.ordinal, charCount: s.text.length })),
    });
    await markDocumentIngested(tx, filing.accessionNumber, key);
    await storeFilingDocument(tx, filing.accessionNumber, { ...document, fileName: filing.primaryDocument ?? document.fileName });
    const { sections, ...rest } = letter;
    await saveFormRecord(
      tx,
      {
        accessionNumber: filing.accessionNumber,
        family: fundLetterFamily,
        formType: filing.form,
        cik: filing.cik,
        filedAt: filing.filedAt?.toISOString().slice(0, 10) ?? null,
        periodOfReport: letter.periodEnd ?? filing.reportDate?.toISOString().slice(0, 10) ?? null,
        parties: [{ cik: filing.cik, name: letter.registrantName, role: 'registrant' }],
        data: { ...rest, sections: sections.map(({ key: sectionKey, kind, title }) => ({ key: sectionKey, kind, title })) },
      },
      key,
    );
    const warnings = sections.length ? [] : ['no letter or discussion of fund performance found in Item 1'];
    return { records: sections.length + 2, events: [], ...(warnings.length ? { warnings } : {}) };
  },
});
