// People named in 8-K prose: runs of capitalised words that are not titles, bodies, places or
// dates ("Gary S. Shedlin", "Dina Powell McCormick"), and "Mr. Ridge"-style references back to them.

export interface NameMention {
  name: string;
  start: number;
  end: number;
}

// Capitalised words that occur next to names but never are one.
const notNames = new Set(
  `a an the on in as at by for from of to with and or our its his her their this that these those each such any all no not if under upon
  following effective also further additionally pursuant during prior after before between however accordingly
  mr ms mrs dr messrs company corporation corp inc incorporated co llc llp ltd lp plc firm bank banking board directors director
  committee compensation management development nominating governance audit executive executives officer officers chief financial
  operating accounting technology legal marketing commercial investment consumer community asset wealth president presidents vice
  chair chairman chairwoman chairperson lead independent senior general counsel secretary treasurer controller principal named head
  global group holdings trust partners capital securities exchange commission act item items form current report annual quarterly
  exhibit exhibits plan plans agreement agreements award awards meeting stockholders shareholders fiscal year years quarter class series
  common stock preferred january february march april may june july august september october november december monday tuesday
  wednesday thursday friday saturday sunday united states department homeland security governor state nasdaq new york market select
  restricted unit units performance share shares retention continuity variable incentive equity long term bonus salary base target
  section rule regulation operations customer brand field worldwide deputy assistant managing interim acting business services
  products international national american corporate human resources people culture risk information digital strategy strategic office
  founder member members subsidiary registrant policy code ethics conduct proxy statement statements employee employees letter offer
  separation release transition consulting severance change control recoupment clawback option options purchase nonqualified
  qualified approved amended restated adoption election appointment departure resignation retirement commonwealth university
  institute foundation center council america north south east west street avenue road`
    .split(/\s+/)
    .filter(Boolean),
);

const initial = /^[A-Z]\.$/;
const suffix = /^(Jr\.?|Sr\.?|II|III|IV)$/;
// "McCormick", "DeMark", "Jen-Hsun", "O'Neil"
const nameWord = /^[A-Z][a-z]*(?:[A-Z][a-z]+)?(?:[-'’][A-Z][a-z]+)*$/;
// a run of names directly followed by one of these is an organisation ("Meta Platforms, Inc.")
const organisationAfter = /^,?\s*(?:Inc\b|Corp\b|Corporation|Company|Co\.|LLC|L\.L\.C|LLP|L\.P\.|Ltd|Limited|plc|N\.A\.|Holdings|Group|Bank|Trust|Partners|Capital|Securities|&)/;

function isNameWord(word: string): boolean {
  return nameWord.test(word) && /[a-z]/.test(word) && word.length > 1 && !word.split(/[-'’]/).some((part) => notNames.has(part.toLowerCase()));
}

const endsSentence = (word: string) => word.endsWith('.') && !initial.test(word);

/** Full names (two to five words) in reading order. */
export function fullNames(text: string): NameMention[] {
  // a possessive ends the word: "Mr. Hargrove’s decision" names Hargrove
  const words = [...text.matchAll(/[A-Za-z](?:[A-Za-z-]|['’](?!s\b))*\.?/g)].map((m) => ({ word: m[0], start: m.index!, end: m.index! + m[0].length }));
  const mentions: NameMention[] = [];
  let run: typeof words = [];
  const flush = () => {
    while (run.length && !isNameWord(run[run.length - 1]!.word.replace(/\.$/, '')) && !suffix.test(run[run.length - 1]!.word)) run.pop();
    const first = run[0];
    const last = run[run.length - 1];
    // a leading initial ("R. Andrew Dickson") needs two names after it, or "B. Amortization" would pass
    const nameWords = run.filter((t) => isNameWord(t.word.replace(/\.$/, ''))).length;
    if (first && last && run.length >= 2 && run.length <= 5 && nameWords >= (initial.test(first.word) ? 2 : 1)) {
      const end = last.end - (endsSentence(last.word) && !suffix.test(last.word) ? 1 : 0);
      const before = text.slice(Math.max(0, first.start - 4), first.start);
      if (!organisationAfter.test(text.slice(end)) && !/\bthe\s$/i.test(before)) mentions.push({ name: text.slice(first.start, end), start: first.start, end });
    }
    run = [];
  };
  for (const token of words) {
    const fits = initial.test(token.word) || suffix.test(token.word) || isNameWord(token.word.replace(/\.$/, ''));
    const previous = run[run.length - 1];
    const continues = previous && fits && /^ +$/.test(text.slice(previous.end, token.start)) && !endsSentence(previous.word);
    if (continues) run.push(token);
    else {
      flush();
      if (isNameWord(token.word.replace(/\.$/, '')) || initial.test(token.word)) run.push(token);
    }
  }
  flush();
  return mentions;
}

/** "Mr. Petno", "Ms. Lake": the surname, to be matched to a full name seen elsewhere. */
export function honorificMentions(text: string): NameMention[] {
  return [...text.matchAll(/\b(?:Mr|Ms|Mrs|Dr)\.\s+([A-Z][a-z]*(?:[A-Z][a-z]+)?(?:[-'’][A-Z][a-z]+)*)/g)].map((m) => ({ name: m[1]!, start: m.index!, end: m.index! + m[0].length }));
}

/** The known full name a surname refers to, when exactly one fits. */
export function resolveSurname(surname: string, known: string[]): string | null {
  const fits = [...new Set(known.filter((n) => n.split(/\s+/).filter((w) => !suffix.test(w)).pop() === surname))];
  return fits.length === 1 ? fits[0]! : null;
}

const titleWord = /\b(chief|officers?|presidents?|directors?|board|chair(man|woman|person)?s?|ceos?|cfo|coo|cto|cio|cao|secretary|treasurer|counsel|controller|head|members?|partners?|vice|executives?|managers?|trustees?|founders?|principal)\b/i;

/** A job title, tidied: articles and "current" dropped, defined-term parentheses removed. */
export function positionOf(phrase: string | null | undefined): string | null {
  if (!phrase) return null;
  const tidy = phrase
    .replace(/\s*\((?:the\s+)?[“"][^”"]*[”"]\)/g, '')
    .replace(/\d+$/, '')
    .replace(/^(?:(?:a|an|the|its|our|his|her|their|current|then-current|former|new)\s+)+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  return tidy && titleWord.test(tidy) && tidy.length <= 160 ? tidy : null;
}
