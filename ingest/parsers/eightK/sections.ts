// An 8-K's readable text cut into its items: the cover (everything before the first item) and
// one section per "Item N.NN" heading, ending at the next heading or at the signatures.

export interface ItemSection {
  /** '5.02'; for reports before the 2004 item numbering, the bare number ('5') */
  item: string;
  /** the heading's own title as printed, '' when the heading gives only the number */
  title: string;
  body: string;
}

/** Form 8-K item titles, to map the submission header's ITEM INFORMATION lines to numbers. */
const itemTitles: [string, string][] = [
  ['1.01', 'Entry into a Material Definitive Agreement'],
  ['1.02', 'Termination of a Material Definitive Agreement'],
  ['1.03', 'Bankruptcy or Receivership'],
  ['1.04', 'Mine Safety - Reporting of Shutdowns and Patterns of Violations'],
  ['1.05', 'Material Cybersecurity Incidents'],
  ['2.01', 'Completion of Acquisition or Disposition of Assets'],
  ['2.02', 'Results of Operations and Financial Condition'],
  ['2.03', 'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant'],
  ['2.04', 'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement'],
  ['2.05', 'Costs Associated with Exit or Disposal Activities'],
  ['2.06', 'Material Impairments'],
  ['3.01', 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing'],
  ['3.02', 'Unregistered Sales of Equity Securities'],
  ['3.03', 'Material Modification to Rights of Security Holders'],
  ['4.01', "Changes in Registrant's Certifying Accountant"],
  ['4.02', 'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review'],
  ['5.01', 'Changes in Control of Registrant'],
  ['5.02', 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers'],
  ['5.03', 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year'],
  ['5.04', "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ['5.05', "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ['5.06', 'Change in Shell Company Status'],
  ['5.07', 'Submission of Matters to a Vote of Security Holders'],
  ['5.08', 'Shareholder Director Nominations'],
  ['6.01', 'ABS Informational and Computational Material'],
  ['6.02', 'Change of Servicer or Trustee'],
  ['6.03', 'Change in Credit Enhancement or Other External Support'],
  ['6.04', 'Failure to Make a Required Distribution'],
  ['6.05', 'Securities Act Updating Disclosure'],
  ['6.06', 'Static Pool'],
  ['7.01', 'Regulation FD Disclosure'],
  ['8.01', 'Other Events'],
  ['9.01', 'Financial Statements and Exhibits'],
];

const normalized = (title: string) => title.toLowerCase().replace(/[^a-z]+/g, ' ').trim();

/**
 * The item number of a header description. Titles changed over the years (2005's 5.02 spoke of
 * "Principal Officers"), so the longest shared beginning decides, and a weak match is no match.
 */
/** The title Form 8-K gives an item number ('2.02' → 'Results of Operations and Financial Condition'), null for an unknown one. */
export function itemTitle(item: string): string | null {
  return itemTitles.find(([number]) => number === item)?.[1] ?? null;
}

export function itemNumberOfTitle(description: string): string | null {
  const wanted = normalized(description);
  let best: { item: string; shared: number } | null = null;
  for (const [item, title] of itemTitles) {
    const known = normalized(title);
    let shared = 0;
    while (shared < Math.min(wanted.length, known.length) && wanted[shared] === known[shared]) shared++;
    if (!best || shared > best.shared) best = { item, shared };
  }
  return best && best.shared >= Math.min(14, wanted.length) ? best.item : null;
}

// "Item 5.02 Departure of ...", "ITEM 5.02.", "Item 2.02. Results ..."; a line that merely refers
// to an item ("Item 2.02 of this Current Report is incorporated ...") continues in lower case.
const numberedHeading = /^\s*item\s*(\d{1,2}\.\d{2})\.?\s*(.*)$/i;
const legacyHeading = /^\s*item\s+(\d{1,2})\.?\s+([A-Z].*)$/i;
const signatures = /^\s*(signatures?|exhibit index)\s*$/i;
// layout left over from the HTML: page rules, page numbers, running heads
const layoutLine = /^\s*(-{5,}|\d{1,3}|-\s*\d{1,3}\s*-|page \d+( of \d+)?|table of contents)\s*$/i;

function headingOf(line: string, pattern: RegExp): { item: string; title: string } | null {
  const match = line.match(pattern);
  if (!match) return null;
  const rest = match[2]!.trim();
  if (rest && !/^[A-Z(–—:-]/.test(rest)) return null;
  if (/^(of|is|are|in|to|and|above|below|herein)\b/i.test(rest)) return null;
  return { item: match[1]!, title: rest.replace(/^[–—:.-]\s*/, '').replace(/\.$/, '').trim() };
}

export function splitItems(text: string): { cover: string; sections: ItemSection[] } {
  const lines = text.split('\n');
  const hasNumbered = lines.some((l) => headingOf(l, numberedHeading));
  const pattern = hasNumbered ? numberedHeading : legacyHeading;
  const sections: ItemSection[] = [];
  const coverLines: string[] = [];
  let current: { item: string; title: string; lines: string[] } | null = null;
  let ended = false;
  const close = () => {
    if (current) sections.push({ item: current.item, title: current.title, body: current.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim() });
    current = null;
  };
  for (const line of lines) {
    const heading = headingOf(line, pattern);
    if (heading && !sections.some((s) => s.item === heading.item) && current?.item !== heading.item) {
      close();
      ended = false;
      current = { ...heading, lines: [] };
      continue;
    }
    if (signatures.test(line) || /^\s*Pursuant to the requirements of the Securities Exchange Act/i.test(line)) {
      close();
      ended = true;
    }
    if (ended) continue;
    if (current) {
      // a heading that prints only the number has its title on the next line
      if (!current.title && !current.lines.some((l) => l.trim()) && line.trim() && itemNumberOfTitle(line) === current.item) current.title = line.trim();
      else if (!layoutLine.test(line)) current.lines.push(line);
    } else coverLines.push(line);
  }
  close();
  return { cover: coverLines.join('\n'), sections };
}
