// Who filed an 8-K, when, and about which day: from the submission header when the input is a
// full submission, else from the cover's inline-XBRL (dei) facts, else from the cover's text.
import { parse } from 'node-html-parser';
import { htmlToText, looksLikeHtml } from '../documents/html.ts';
import { isSgmlSubmission, parseSgmlSubmission } from '../documents/sgml.ts';
import { pressReleasesOf, type PressRelease } from './exhibits.ts';
import { itemNumberOfTitle } from './sections.ts';
import { toIsoDate, writtenDate } from './text.ts';

export interface EightKCover {
  accessionNumber: string | null;
  formType: string;
  filedAt: string | null;
  periodOfReport: string | null;
  company: { cik: string | null; name: string | null };
  /** item numbers the submission header lists; null when there is no header (or one we cannot map) */
  headerItems: string[] | null;
  /** the 8-K document as readable text */
  text: string;
  /** the EX-99 press releases a full submission holds; null for a primary document read alone (its exhibits are not in it) */
  pressReleases: PressRelease[] | null;
}

/** The first value of each dei fact in an inline-XBRL document ('' when tagged but empty). */
export function deiFacts(html: string): Map<string, string> {
  const facts = new Map<string, string>();
  const pattern = /<ix:nonNumeric\b[^>]*\bname="dei:(\w+)"[^>]*>([\s\S]*?)<\/ix:nonNumeric>/gi;
  for (const match of html.matchAll(pattern)) {
    if (facts.has(match[1]!)) continue;
    facts.set(match[1]!, parse(match[2]!).textContent.replace(/\s+/g, ' ').trim());
  }
  return facts;
}

const nonEmpty = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);

/** Date of report from the cover: after the "Date of Report" label, before it (older layouts), or alone on a line. */
function coverDate(cover: string): string | null {
  const labelled = cover.match(new RegExp(`Date of Report[^:\\n]*(?:\\)|:)\\s*:?\\s*(${writtenDate})`, 'i'));
  if (labelled) return toIsoDate(labelled[1]);
  const lines = cover.split('\n').map((l) => l.trim());
  const alone = lines.find((l) => new RegExp(`^${writtenDate}(\\s*\\(.*\\))?$`).test(l));
  return alone ? toIsoDate(alone) : null;
}

function registrantNameOnCover(cover: string): string | null {
  const lines = cover.split('\n').map((l) => l.trim());
  const label = lines.findIndex((l) => /^\(?exact name of (the )?registrant/i.test(l));
  for (let i = label - 1; i >= 0 && label > 0; i--) if (lines[i]) return lines[i]!.replace(/\s{2,}.*$/, '');
  return null;
}

export function readEightK(input: { text: string; name: string }): EightKCover {
  if (isSgmlSubmission(input.text)) {
    const submission = parseSgmlSubmission(input.text);
    const document = submission.documents.find((d) => /^8-K/i.test(d.type)) ?? submission.documents[0];
    const body = document?.text ?? '';
    const text = looksLikeHtml(body) ? htmlToText(body) : body;
    const filer = submission.filers[0] ?? submission.subjectCompanies[0];
    const mapped = submission.itemDescriptions.map(itemNumberOfTitle);
    return {
      accessionNumber: submission.accessionNumber,
      formType: submission.formType ?? document?.type ?? '8-K',
      filedAt: submission.filedAt,
      periodOfReport: submission.periodOfReport ?? coverDate(text),
      company: { cik: filer?.cik || null, name: filer?.name ?? null },
      headerItems: mapped.length && mapped.every((m) => m) ? (mapped as string[]) : null,
      text,
      pressReleases: pressReleasesOf(submission.documents),
    };
  }
  const html = looksLikeHtml(input.text);
  const text = html ? htmlToText(input.text) : input.text;
  const dei = html ? deiFacts(input.text) : new Map<string, string>();
  const cover = text.slice(0, text.search(/^\s*item\s*\d/im) >= 0 ? text.search(/^\s*item\s*\d/im) : 6000);
  const formOnCover = cover.match(/FORM\s+(8-K(?:\/A)?)/i)?.[1]?.toUpperCase();
  const cik = nonEmpty(dei.get('EntityCentralIndexKey'));
  return {
    // the primary document does not carry these; the loader takes them from the filing index
    accessionNumber: null,
    filedAt: null,
    formType: nonEmpty(dei.get('DocumentType')) ?? formOnCover ?? (/\b8-K\b/.test(cover) ? '8-K' : 'unknown'),
    periodOfReport: toIsoDate(dei.get('DocumentPeriodEndDate')) ?? coverDate(cover),
    company: { cik: cik ? cik.padStart(10, '0') : null, name: nonEmpty(dei.get('EntityRegistrantName')) ?? registrantNameOnCover(cover) },
    headerItems: null,
    text,
    pressReleases: null,
  };
}
