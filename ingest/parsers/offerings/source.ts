// The parts of an offering filing the cover parser reads: the submission header (when the input
// is a full submission), the main document as text, and the filing-fee exhibit if there is one.
import { htmlToText, looksLikeHtml } from '../documents/html.ts';
import { isSgmlSubmission, parseSgmlSubmission } from '../documents/sgml.ts';

export interface OfferingSource {
  accessionNumber: string | null;
  formType: string | null;
  filedAt: string | null;
  registrant: { cik: string | null; name: string | null };
  /** the prospectus or registration statement, as readable text */
  text: string;
  /** the "Calculation of Filing Fee Tables" exhibit (Exhibit 107), as text */
  feeExhibit: string | null;
}

const readable = (body: string) => (looksLikeHtml(body) ? htmlToText(body) : body);

export function readOffering(input: { text: string; name: string }): OfferingSource {
  if (isSgmlSubmission(input.text)) {
    const submission = parseSgmlSubmission(input.text);
    const main = submission.documents.find((d) => d.type === submission.formType) ?? submission.documents[0];
    const fees = submission.documents.find((d) => /^EX-FILING FEES/i.test(d.type));
    const filer = submission.filers[0] ?? submission.subjectCompanies[0];
    return {
      accessionNumber: submission.accessionNumber,
      formType: submission.formType,
      filedAt: submission.filedAt,
      registrant: { cik: filer?.cik || null, name: filer?.name ?? null },
      text: readable(main?.text ?? ''),
      feeExhibit: fees ? readable(fees.text) : null,
    };
  }
  // a lone document as EDGAR stores it may still open with its <TYPE> line
  const typed = input.text.slice(0, 500).match(/<TYPE>([^\r\n<]+)/)?.[1]?.trim() ?? null;
  return { accessionNumber: null, formType: typed, filedAt: null, registrant: { cik: null, name: null }, text: readable(input.text), feeExhibit: null };
}
