// Form 6-K, the report a foreign private issuer furnishes of what it made public at home. It has no
// item numbers: what it reports is its documents. Read from the full submission: the header (who,
// when), the EX-99 exhibits (titled as an 8-K's press releases are) and the report's own words, from
// the first exhibit when there is one, since the 6-K's cover is the same boilerplate in every filing
// (file number, the Form 20-F or 40-F check box).
import { htmlToText, looksLikeHtml } from '../documents/html.ts';
import { isSgmlSubmission, parseSgmlSubmission, type SgmlDocument } from '../documents/sgml.ts';
import { pressReleasesOf, type PressRelease } from '../eightK/exhibits.ts';
import { excerptOf } from '../eightK/text.ts';

export interface SixKReport {
  /** from the submission header; null for a bare primary document */
  accessionNumber: string | null;
  /** '6-K' or '6-K/A' */
  formType: string;
  filedAt: string | null;
  /** when EDGAR accepted it, from the submission header */
  acceptedAt: string | null;
  periodOfReport: string | null;
  /** the file name of the submission's first document */
  primaryDocument: string | null;
  company: { cik: string | null; name: string | null };
  /** the EX-99 exhibits of a full submission; null when only the primary document was read */
  pressReleases: PressRelease[] | null;
  /** the primary document's description where it says more than the form's name */
  title: string | null;
  /** the report's own words: the first exhibit's text, else the primary document's past its cover; at most 1,500 characters */
  excerpt: string | null;
}

const textOf = (document: Pick<SgmlDocument, 'text'>) => (looksLikeHtml(document.text) ? htmlToText(document.text) : document.text);

/** The cover ends with the Form 20-F / 40-F check box; what follows it is the report. */
function pastCover(text: string): string {
  const boxes = [...text.matchAll(/Form\s+40-F/gi)];
  const body = boxes.length ? text.slice(boxes.at(-1)!.index! + boxes.at(-1)![0].length) : text;
  return body.split(/\n\s*SIGNATURES?\s*\n/i)[0]!;
}

/** A description that names the document rather than the form ("FORM 6-K", "Report of Foreign Private Issuer"). */
const namesDocument = (description: string | null) => !!description?.trim() && !/^(form\s*)?6-K(\/A)?$|report of (a )?foreign (private )?issuer/i.test(description.trim());

export function parseSixK(input: { text: string; name: string }, indexedForm: string | null = null): SixKReport {
  if (!isSgmlSubmission(input.text)) {
    const excerpt = excerptOf(pastCover(textOf({ text: input.text })));
    return { accessionNumber: null, formType: indexedForm ?? '6-K', filedAt: null, acceptedAt: null, periodOfReport: null, primaryDocument: null, company: { cik: null, name: null }, pressReleases: null, title: null, excerpt: excerpt || null };
  }
  const submission = parseSgmlSubmission(input.text);
  const formType = submission.formType ?? indexedForm;
  if (!formType || !/^6-K(\/A)?$/i.test(formType)) throw new Error(`${input.name}: not a Form 6-K report (form ${formType ?? 'not stated'})`);
  const company = submission.filers[0] ?? submission.subjectCompanies[0] ?? null;
  const [primary, ...exhibits] = submission.documents;
  const pressReleases = pressReleasesOf(exhibits);
  const release = exhibits.find((d) => /^EX-99(\.\d+)?$/i.test(d.type));
  const words = release ? textOf(release) : primary ? pastCover(textOf(primary)) : '';
  const excerpt = excerptOf(words);
  return {
    accessionNumber: submission.accessionNumber,
    formType: formType.toUpperCase(),
    filedAt: submission.filedAt,
    acceptedAt: submission.acceptedAt,
    periodOfReport: submission.periodOfReport,
    primaryDocument: primary?.filename ?? null,
    company: { cik: company?.cik ?? null, name: company?.name ?? null },
    pressReleases,
    title: namesDocument(primary?.description ?? null) ? primary!.description!.trim() : null,
    excerpt: excerpt || null,
  };
}
