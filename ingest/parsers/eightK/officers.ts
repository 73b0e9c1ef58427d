// Item 5.02: who leaves, who is appointed or elected, and whose pay changes. Each person named
// in a sentence takes the change of the first cue word after the name ("X has decided to retire"),
// else of the last one before it ("the Board elected X"); compensation tables (a name row with
// amounts, the title on the next line) add a 'compensation' change for each executive listed.
import type { Confidence, OfficerChange } from './types.ts';
import { fullNames, honorificMentions, positionOf, resolveSurname, type NameMention } from './people.ts';
import { proseSentences, sentences, spanOf, toIsoDate, writtenDate, type SourceSpan } from './text.ts';

type ChangeKind = OfficerChange['change'];

const cues: { change: ChangeKind; pattern: RegExp }[] = [
  {
    change: 'departure',
    pattern: /\b(?:resign(?:ed|s|ing|ation)?|retire(?:d|s|ment)?|retiring|step(?:ped|s|ping)? down|depart(?:ed|s|ure)|terminat(?:ed|ion)|separat(?:ed|ion) from|(?:will )?not (?:to )?stand for re-?election|decided not to (?:stand|seek)|transition(?:ed|s|ing)? from)\b/gi,
  },
  { change: 'election', pattern: /\b(?:re-?elected|elected)\b/gi },
  { change: 'appointment', pattern: /\b(?:appoint(?:ed|s|ment)|named(?! executive)|became|will become|to become|promot(?:ed|ion)|hired|(?:will )?succeed(?:s|ed)?)\b/gi },
  { change: 'compensation', pattern: /\b(?:award(?:s|ed)?|grant(?:s|ed)?|salary|salaries|bonus(?:es)?|compensation plan|compensatory|retention|severance|restricted stock)\b/gi },
];

interface Cue {
  change: ChangeKind;
  text: string;
  start: number;
  end: number;
}

function cuesIn(sentence: string): Cue[] {
  return cues
    .flatMap(({ change, pattern }) => [...sentence.matchAll(pattern)].map((m) => ({ change, text: m[0], start: m.index!, end: m.index! + m[0].length })))
    .sort((a, b) => a.start - b.start);
}

// where a role phrase stops: a clause break, a sentence end, the effective date, the next person
const phraseEnd = String.raw`(?=,|;|\.(?:\s|$|\d)|\s+effective\b|\s+and\s+(?:Mr|Ms|Mrs|Dr)\.|\s+and\s+will\b|\s+and\s+\((?:[ivx]+|[a-z])\)|\s+to\s+(?:pursue|focus|join)\b|$)`;

function roleAfterCue(cue: Cue, rest: string): string | null {
  const pattern =
    cue.change === 'departure'
      ? new RegExp(String.raw`^\s*(?:as|from\s+(?:(?:the|his|her|their)\s+)?(?:roles?|positions?|office)\s+(?:of|as)|from)\s+(.+?)${phraseEnd}`, 'i')
      : new RegExp(String.raw`^\s*(?:as|to serve as|to the (?:role|position|office) of|to)?\s*(.+?)${phraseEnd}`, 'i');
  return positionOf(rest.match(pattern)?.[1]);
}

function roleAfterName(rest: string): string | null {
  // "appointed Priya N. Raman, age 47, as Chief Financial Officer": the age aside comes first
  const role = rest.match(new RegExp(String.raw`^(?:,\s*(?:age\s+)?\d{2},)?\s*(?:to serve |to the (?:role|position|office) of |to be )?as\s+(.+?)${phraseEnd}`, 'i'))?.[1];
  if (role) return positionOf(role);
  const board = rest.match(/^\s*to (?:the|its|our) (Board(?: of Directors)?)/i)?.[1];
  return board ? `member of the ${board}` : null;
}

function appositiveRole(rest: string): string | null {
  return positionOf(rest.match(/^,\s*(?:age\s+)?(?:\d{2},\s*)?([^,;]+?)(?=,|;|\.(?:\s|$))/)?.[1]);
}

function effectiveDateIn(sentence: string, from: number): string | null {
  const tail = sentence.slice(from);
  const dated = tail.match(new RegExp(`effective (?:as of |on )?(${writtenDate})`, 'i')) ?? sentence.match(new RegExp(`effective (?:as of |on )?(${writtenDate})`, 'i'));
  if (dated) return toIsoDate(dated[1]);
  if (/effective immediately|with immediate effect|effective (?:as of )?(?:that|such|the same) date/i.test(sentence)) {
    const lead = sentence.match(new RegExp(`^(?:\\([a-z]\\)\\s*)?On (${writtenDate})`));
    return lead ? toIsoDate(lead[1]) : null;
  }
  return null;
}

function changesInSentence(sentence: string, known: string[]): OfficerChange[] {
  const found = cuesIn(sentence);
  if (!found.length) return [];
  const people: (NameMention & { person: string })[] = [
    ...fullNames(sentence).map((m) => ({ ...m, person: m.name })),
    ...honorificMentions(sentence).map((m) => ({ ...m, person: resolveSurname(m.name, known) ?? sentence.slice(m.start, m.end) })),
  ].sort((a, b) => a.start - b.start);
  const changes: OfficerChange[] = [];
  for (const mention of people) {
    const after = found.find((c) => c.start >= mention.end);
    const cue = after ?? [...found].reverse().find((c) => c.end <= mention.start);
    if (!cue) continue;
    const afterName = sentence.slice(mention.end);
    const afterCue = sentence.slice(cue.end);
    const effectiveDate = effectiveDateIn(sentence, cue.start);
    if (/^transition/i.test(cue.text)) {
      const roles = afterCue.match(new RegExp(String.raw`^\s*(?:the\s+)?(?:(?:role|position|office)\s+(?:of|as)\s+)?(.+?)\s+to\s+(?:the\s+(?:role|position)\s+of\s+)?(.+?)${phraseEnd}`, 'i'));
      changes.push({ person: mention.person, position: positionOf(roles?.[1]), change: 'departure', effectiveDate });
      if (positionOf(roles?.[2])) changes.push({ person: mention.person, position: positionOf(roles?.[2]), change: 'appointment', effectiveDate });
      continue;
    }
    const voiceActive = cue === after;
    let position: string | null;
    if (cue.change === 'compensation') position = appositiveRole(afterName);
    else if (cue.change === 'departure') position = appositiveRole(afterName) ?? (voiceActive ? roleAfterCue(cue, afterCue) : roleAfterName(afterName));
    else position = (voiceActive ? roleAfterCue(cue, afterCue) : roleAfterName(afterName)) ?? appositiveRole(afterName);
    changes.push({ person: mention.person, position, change: cue.change, effectiveDate });
  }
  return changes;
}

/** Executive-by-executive pay tables: "Jen-Hsun Huang   $4,000,000   200%" then "President and Chief Executive Officer". */
function compensationTableRows(body: string): OfficerChange[] {
  const lines = body.split('\n').map((l) => l.trim()).filter(Boolean);
  const changes: OfficerChange[] = [];
  lines.forEach((line, i) => {
    const cells = line.split(/\s{2,}/);
    if (cells.length < 2 || !cells.slice(1).some((c) => /[$\d%—–-]/.test(c))) return;
    const names = fullNames(cells[0]!);
    if (names.length !== 1 || names[0]!.name !== cells[0]) return;
    const title = positionOf(lines[i + 1]?.split(/\s{2,}/)[0]);
    changes.push({ person: cells[0]!, position: title, change: 'compensation', effectiveDate: null });
  });
  return changes;
}

export function parseOfficerChanges(body: string): { changes: OfficerChange[]; confidence: Confidence } & SourceSpan {
  const known = fullNames(body).map((m) => m.name);
  const prose = body
    .split('\n')
    .filter((l) => !/\S\s{2,}\S/.test(l.trim()))
    .join('\n');
  const read = sentences(prose).map((sentence) => ({ sentence, changes: changesInSentence(sentence, known) }));
  const all = [...read.flatMap((r) => r.changes), ...compensationTableRows(body)];
  // "Ms. Raman will receive a base salary of ...": her role is the one the item gives her elsewhere
  for (const change of all) {
    if (change.position || change.change !== 'compensation') continue;
    change.position = all.find((other) => other.person === change.person && other.position && other.change !== 'departure')?.position ?? null;
  }
  const seen = new Set<string>();
  const changes = all.filter((c) => {
    const key = `${c.person}|${c.change}|${c.position ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const confidence: Confidence = !changes.length ? 'low' : changes.every((c) => c.position && !/^(Mr|Ms|Mrs|Dr)\./.test(c.person)) ? 'high' : 'medium';
  // the event's source: the first sentence a change was read from, else (changes read from a pay
  // table's rows) the sentence that introduces the pay decisions
  const sentence = read.find((r) => r.changes.length)?.sentence ?? (changes.length ? proseSentences(prose).find((s) => cuesIn(s).some((c) => c.change === 'compensation')) : undefined);
  return { changes, confidence, ...spanOf(sentence, changes.length ? 'the changes were read from a compensation table, and no sentence of the item speaks of pay' : 'no sentence of the item names a change the parser reads') };
}
