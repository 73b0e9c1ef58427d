// Facts printed on a prospectus cover (and a registration statement's facing page): what is
// offered, how much of it, at what price, where it trades, and who sells it. Numbers are taken
// as printed ("$5.103" -> 5.103, "3,103,629.29" -> 3103629.29); a blank left for pricing is null.

/** The facing page and prospectus cover: up to the line that dates the prospectus. */
export function coverOf(text: string): string {
  const dateLine = text.match(/^[ \t]*(?:The date of this prospectus(?: supplement)? is|Prospectus(?: Supplement)? dated)\b.*$/im);
  return dateLine ? text.slice(0, dateLine.index! + dateLine[0].length) : text.slice(0, 20_000);
}

const amount = (digits: string) => Number(digits.replace(/,/g, ''));
const dollars = /\$\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\s*(?:million|billion))/g;

export function registrationFileNumber(cover: string): string | null {
  return cover.match(/Registration (?:Statement )?Nos?\.?\s*:?\s*(333-\d{3,})/i)?.[1] ?? null;
}

/** The form, read from the document when no header names it. */
export function formTypeOnPage(cover: string): string | null {
  const rule = cover.match(/Filed Pursuant to Rule 424\(b\)\((\d)\)/i);
  if (rule) return `424B${rule[1]}`;
  if (/Post-Effective Amendment No\.\s*\d+\s+to\s+Form\s+S-[13]/i.test(cover)) return 'POS AM';
  const form = cover.match(/\bFORM\s+(S-1|S-3|F-1|F-3|S-11)\b(\/A)?/i);
  if (!form) return null;
  return /AMENDMENT NO\.\s*\d+\s+TO\s+FORM/i.test(cover) ? `${form[1]!.toUpperCase()}/A` : form[1]!.toUpperCase();
}

/** "refer to Flushing Financial Corporation and its subsidiaries" or the facing page's name line. */
export function registrantNameOnPage(text: string): string | null {
  const lines = text.slice(0, 20_000).split('\n').map((l) => l.trim());
  const label = lines.findIndex((l) => /^\(?exact name of (the )?registrant/i.test(l));
  for (let i = label - 1; label > 0 && i >= 0; i--) if (lines[i]) return lines[i]!.replace(/\s{2,}.*$/, '');
  // the prospectus cover's title line, where the page prints the name rather than a logo
  const titled = text.slice(0, 20_000).match(/^[ \t]*([A-Z][\w&.,'’ -]{1,80}?,?\s(?:Inc\.?|Corporation|Corp\.|Ltd\.?|plc|N\.V\.|S\.A\.|LLC|L\.P\.|Holdings|Bancorp|Co\.))[ \t]*$/m);
  if (titled) return titled[1]!;
  const referred = text.match(/\brefers? to\s+((?:[A-Z][\w&.,'’-]*\s)*?(?:Inc\.|Corporation|Corp\.|Company|Co\.|Ltd\.|LLC|plc|N\.V\.|S\.A\.|Holdings|Group|Trust|Bancorp))/);
  return referred?.[1] ?? null;
}

export function listing(cover: string): { exchange: string | null; ticker: string | null } {
  const match = cover.match(
    /\b(?:listed|traded|quoted|approved for listing|(?:applied )?to list(?: our [\w ]{1,40}?)?)\s+on\s+(?:the\s+)?(.{3,60}?)(?:,[^,]{0,30},)?\s+under the (?:trading )?symbols?\s+[“"']?([A-Z][A-Z0-9.-]{0,9})/i,
  );
  if (!match) return { exchange: null, ticker: null };
  return { exchange: match[1]!.replace(/^The\s+/i, '').trim(), ticker: match[2]!.replace(/[.-]+$/, '') };
}

/** The securities named in the cover's title lines, e.g. "608,197 Shares of Common Stock". */
export function securitiesOffered(cover: string, registrantName: string | null): string | null {
  const lines = cover.split('\n').map((l) => l.trim());
  // a facing page alone (a deregistration, an exhibit-only amendment) has no prospectus cover
  const heading = lines.findIndex((l) => /^(?:PRELIMINARY\s+)?PROSPECTUS(?:\s+SUPPLEMENT)?$/i.test(l));
  if (heading < 0) return null;
  const start = heading + 1;
  const titles: string[] = [];
  const sameName = (line: string) => registrantName && line.replace(/[^a-z0-9]/gi, '').toLowerCase() === registrantName.replace(/[^a-z0-9]/gi, '').toLowerCase();
  for (const line of lines.slice(start, start + 25)) {
    if (!line) continue;
    if (line.length > 150 || /^(We|The|Our|This|Pursuant|In a)\b/.test(line)) break;
    if (/^\(To .*Prospectus/i.test(line) || /^subject to completion/i.test(line) || /^(?:up to\s+)?\$[\d,.]+$/i.test(line) || /^shares$/i.test(line)) continue;
    if (sameName(line) || /,?\s(?:Inc\.?|Corporation|Corp\.|Ltd\.?|plc|N\.V\.|LLC)$/.test(line)) continue;
    if (/\b(shares?|stock|warrants?|securities|units?|notes?|debentures?|rights|depositary|preferred|bonds?)\b/i.test(line)) titles.push(line.replace(/\s{2,}/g, ' '));
  }
  return titles.length ? titles.join('; ') : null;
}

export function sharesOffered(cover: string): number | null {
  const title = cover.match(/^\s*(?:Up to\s+)?(\d{1,3}(?:,\d{3})+|\d+)\s+Shares\b/im);
  if (title) return amount(title[1]!);
  const prose = cover.match(/\b(?:we are|are being) offering\s+(?:up to\s+)?(\d{1,3}(?:,\d{3})+|\d+)\s+shares\b/i);
  return prose ? amount(prose[1]!) : null;
}

/** The pricing table's offering-price row: per-share price first, total last. */
export function pricing(cover: string): { pricePerShare: number | null; grossProceeds: number | null } {
  const row = cover.match(/^\s*(?:(?:Initial )?public offering price|Price to (?:the )?public|Offering price)\b.*$/im)?.[0];
  const amounts = row ? [...row.matchAll(dollars)].map((m) => amount(m[1]!)) : [];
  if (amounts.length >= 2) return { pricePerShare: amounts[0]!, grossProceeds: amounts[amounts.length - 1]! };
  const perShare = cover.match(/\b(?:public )?offering price (?:of|is)\s+\$(\d+(?:\.\d+)?) per share/i);
  return { pricePerShare: perShare ? amount(perShare[1]!) : null, grossProceeds: null };
}

/** The most the cover says may be sold: "Up to $3,000,000", a "$100,000,000" title, "will not exceed $X". */
export function maximumOnCover(cover: string): number | null {
  const patterns = [
    /aggregate (?:initial )?offering price of up to\s+\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?)(?!\s*(?:million|billion))/i,
    /aggregate (?:initial )?offering price[^.]{0,80}?will not exceed\s+\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?)(?!\s*(?:million|billion))/i,
    /^\s*Up to \$(\d{1,3}(?:,\d{3})+(?:\.\d+)?)\s*$/im,
    /^\s*\$(\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?)\s*$/m,
  ];
  for (const pattern of patterns) {
    const match = cover.match(pattern);
    if (match) return amount(match[1]!);
  }
  return null;
}

const roleHeading = /^(?:Sole |Lead |Joint |Co-?)*(?:Lead |Book-?Running |Placement |Sales |Dealer-?)?(?:Managers?|Placement Agents?|Agents?|Underwriters?|Representatives? of the Underwriters)$/i;

export interface Distributors {
  /** underwriters, book-running managers and their representatives: they buy the securities */
  underwriters: string[];
  /** placement agents: best efforts, they buy nothing */
  placementAgents: string[];
  /** sales agents of an at-the-market program */
  salesAgents: string[];
}

type DistributorRole = keyof Distributors;

function roleOf(heading: string): DistributorRole {
  if (/placement agents?$/i.test(heading)) return 'placementAgents';
  if (/sales agents?$|^agents?$/i.test(heading)) return 'salesAgents';
  return 'underwriters';
}

/**
 * The firms under the cover's role headings, each in the role its heading gives (a "Sole Placement
 * Agent" is no underwriter), else the agent of an at-the-market agreement, a sales agent.
 */
export function distributors(cover: string): Distributors {
  const found: Distributors = { underwriters: [], placementAgents: [], salesAgents: [] };
  let role: DistributorRole | null = null;
  for (const raw of cover.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (roleHeading.test(line)) {
      role = roleOf(line);
      continue;
    }
    if (!role) continue;
    if (line.length > 120 || /^(The date|Prospectus|Subject to)/i.test(line)) {
      role = null;
      continue;
    }
    for (const cell of line.split(/\s{2,}/)) {
      // "A Stifel Company", "a division of Arcadia Securities, LLC" qualify the name above them
      if (/^(?:a|an)\s/i.test(cell) || /^\(/.test(cell) || !/^[A-Z]/.test(cell)) continue;
      if (!found[role].includes(cell)) found[role].push(cell);
    }
  }
  if (found.underwriters.length || found.placementAgents.length || found.salesAgents.length) return found;
  const agent = cover.match(
    /(?:sales agreement|distribution agreement|equity distribution agreement|at[- ]the[- ]market[^,.]{0,40}agreement)[^.]{0,80}?\bwith\s+((?:[A-Z][\w&.'’-]*\s)*[A-Z][\w&.'’-]*(?:,?\s(?:LLC|L\.L\.C\.|Inc\.|L\.P\.|LLP|Corp\.|Ltd\.|Co\.))?)/i,
  );
  if (agent) found.salesAgents.push(agent[1]!.replace(/[.,]$/, ''));
  return found;
}

// a checked box as filings print it: ☒, ☑, þ, x, [X]
const checked = /^(?:☒|☑|✓|✔|þ|ý|x|X|\[\s*[xX]\s*\])$/;

/** Whether the facing page checks the Rule 415 (delayed or continuous offering) box. */
export function rule415Checked(cover: string): boolean {
  const line = cover.match(/^.*Rule 415\b.*check the following box.*$/im)?.[0];
  const box = line?.trim().split(/\s+/).pop()?.replace(/[.:]$/, '');
  return !!box && checked.test(box);
}
