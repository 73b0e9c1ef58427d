// The press releases an 8-K furnishes (its EX-99 exhibits), as a full submission holds them: each
// cited by its sequence, file name and description, and titled by its first heading (else by its
// description, when that says more than "press release").
import { htmlToText, looksLikeHtml } from '../documents/html.ts';
import type { SgmlDocument } from '../documents/sgml.ts';

export interface PressRelease {
  /** 'EX-99.1' */
  type: string;
  sequence: number | null;
  fileName: string | null;
  /** the submission's <DESCRIPTION>, as filed */
  description: string | null;
  /** the release's first heading, else a description that names it; null when neither does */
  title: string | null;
}

// labels that stand above a release's heading, or are all a description says
const label = /^(ex(hibit)?[-\s.]*99(\.\d+)?|(for immediate release|press release|news release|earnings release|news|media release|investor contacts?|media contacts?|contacts?)[:.]?)$/i;
const dateline = /^(\w+\s+\d{1,2},\s*\d{4}|\d{1,2}\/\d{1,2}\/\d{2,4})$/;

/** The first paragraph that reads as a heading: short, no sentence inside it, not a label or a date. */
function firstHeading(text: string): string | null {
  for (const raw of text.split(/\n\s*\n/)) {
    const paragraph = raw.replace(/\s+/g, ' ').trim();
    if (!paragraph || label.test(paragraph) || dateline.test(paragraph) || !/[A-Za-z]{2}/.test(paragraph)) continue;
    // the first words of the release: a paragraph of sentences means it has no heading
    if (paragraph.length > 200 || /[a-z]{2}\.\s+[A-Z]/.test(paragraph)) return null;
    return paragraph.replace(/[.:]$/, '');
  }
  return null;
}

export function pressReleasesOf(documents: SgmlDocument[]): PressRelease[] {
  return documents
    .filter((d) => /^EX-99(\.\d+)?$/i.test(d.type))
    .map((d) => {
      const text = looksLikeHtml(d.text) ? htmlToText(d.text) : d.text;
      const described = d.description && !label.test(d.description.trim()) ? d.description.trim() : null;
      return { type: d.type.toUpperCase(), sequence: d.sequence, fileName: d.filename, description: d.description, title: firstHeading(text) ?? described };
    });
}
