// Item 5.07: the meeting and each proposal's vote counts. Proposals are the numbered paragraphs
// ("1.", "Proposal No. 2"); counts come from the table under each (header cells name the columns,
// rows hold a nominee and numbers), or from "For: 1,234" prose when there is no table.
import type { Confidence, VoteProposal } from './types.ts';
import { countOf, datesIn, proseSentences, sentences, spanOf, type SourceSpan } from './text.ts';

type VoteColumn = 'for' | 'against' | 'withheld' | 'abstain' | 'brokerNonVotes' | 'oneYear' | 'twoYears' | 'threeYears';

const columnPatterns: [VoteColumn, RegExp][] = [
  ['oneYear', /^(?:1|one)[ -]years?$|^every (?:1|one) year$|^annual(?:ly)?$/i],
  ['twoYears', /^(?:2|two)[ -]years?$|^every (?:2|two) years$/i],
  ['threeYears', /^(?:3|three)[ -]years?$|^every (?:3|three) years$/i],
  ['brokerNonVotes', /broker|non-?votes?/i],
  ['withheld', /^withh(?:e|o)ld/i],
  ['against', /^against/i],
  ['abstain', /^abstain|^abstention/i],
  ['for', /^(?:votes )?for$/i],
];

const columnOf = (cell: string): VoteColumn | null => columnPatterns.find(([, pattern]) => pattern.test(cell.trim()))?.[0] ?? null;
const cellsOf = (line: string) => line.trim().split(/\s{2,}|\t+/).filter(Boolean);
const isCount = (cell: string) => countOf(cell) !== null || /^[-—–]+$/.test(cell.trim());

const numberWords: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

interface ProposalBlock {
  number: number;
  lines: string[];
}

function proposalBlocks(body: string): { preamble: string; blocks: ProposalBlock[] } {
  const blocks: ProposalBlock[] = [];
  const preamble: string[] = [];
  for (const line of body.split('\n')) {
    const start = line.match(/^\s*(?:Proposal\s+(?:No\.\s*)?)?(\d{1,2})(?:[.):]\s+|\s*[–—-]\s+)(\S.*)$/i) ?? line.match(/^\s*Proposal\s+(?:No\.\s*)?(\d{1,2})\s*$()/i);
    if (start && Number(start[1]) === blocks.length + 1) {
      blocks.push({ number: Number(start[1]), lines: start[2] ? [start[2]] : [] });
      continue;
    }
    if (blocks.length) blocks[blocks.length - 1]!.lines.push(line);
    else preamble.push(line);
  }
  return { preamble: preamble.join('\n'), blocks };
}

function proposalTypeOf(text: string, hasNominees: boolean): VoteProposal['proposalType'] {
  if (/frequency/i.test(text)) return 'say_on_frequency';
  if (hasNominees || /\belect(?:ion|ed)?\b[^.]{0,80}\bdirectors?\b|\bnominees?\b/i.test(text)) return 'director_election';
  if (/ratif/i.test(text) && /accounting firm|auditor/i.test(text)) return 'auditor_ratification';
  if (/(?:stockholder|shareholder) proposal/i.test(text)) return 'shareholder_proposal';
  if (/executive compensation|compensation (?:of|paid to) (?:the |our |its )?(?:company['’]s )?named executive officers|say[- ]on[- ]pay/i.test(text)) return 'say_on_pay';
  if (/\b(?:incentive|equity|stock|share|award|option|purchase)\b[^.]{0,60}\bplan\b/i.test(text)) return 'equity_plan';
  if (/certificate of incorporation|articles of incorporation|\bcharter\b|by-?laws/i.test(text)) return 'charter_amendment';
  return 'other';
}

function outcomeOf(text: string, type: VoteProposal['proposalType']): VoteProposal['outcome'] {
  if (type === 'say_on_frequency') return ([null, 'one_year', 'two_years', 'three_years'] as const)[selectedFrequency(text) ?? 0];
  if (type === 'director_election') {
    if (/\bnot (?:be(?:en)? )?(?:re-?)?elected\b|failed to (?:be elected|receive)/i.test(text)) return 'not_elected';
    return /\b(?:re-?)?elected\b/i.test(text) ? 'elected' : null;
  }
  if (/\bnot (?:been |be )?(?:approved|ratified|adopted)\b|did not (?:approve|ratify|adopt|pass|receive)|\bfailed\b|\brejected\b|\bdefeated\b/i.test(text)) return 'not_approved';
  return /\b(?:approved|ratified|adopted|passed)\b/i.test(text) ? 'approved' : null;
}

function selectedFrequency(text: string): 1 | 2 | 3 | null {
  const chosen = text.match(/\b(one|1|two|2|three|3)[ -]years?\b|\bevery (one|two|three) years\b|\b(every year|annually)\b/i);
  if (!chosen) return null;
  if (chosen[3]) return 1;
  const word = (chosen[1] ?? chosen[2])!.toLowerCase();
  return word === 'one' || word === '1' ? 1 : word === 'two' || word === '2' ? 2 : 3;
}

interface VoteRow {
  label: string | null;
  votes: Partial<Record<VoteColumn, number | null>>;
}

/** The rows of the vote table in a proposal block, mapped onto the header's columns. */
function tableRows(lines: string[]): { rows: VoteRow[]; tableStart: number } {
  let columns: (VoteColumn | null)[] | null = null;
  let tableStart = -1;
  const rows: VoteRow[] = [];
  lines.forEach((line, index) => {
    const cells = cellsOf(line);
    const mapped = cells.map(columnOf);
    if (mapped.filter(Boolean).length >= 2) {
      columns = mapped;
      if (tableStart < 0) tableStart = index;
      return;
    }
    if (!columns || !cells.length) return;
    const counts = cells.filter(isCount);
    if (!counts.length) return;
    const voteColumns = (columns as (VoteColumn | null)[]).filter((c): c is VoteColumn => c !== null);
    // numbers fill the vote columns from the right: a leading label cell is the nominee
    if (counts.length !== voteColumns.length) return;
    const labelCells = cells.slice(0, cells.length - counts.length);
    if (labelCells.some(isCount) || !cells.slice(labelCells.length).every(isCount)) return;
    const votes: VoteRow['votes'] = {};
    voteColumns.forEach((column, i) => (votes[column] = countOf(counts[i]!)));
    rows.push({ label: labelCells.join(' ').trim() || null, votes });
  });
  return { rows, tableStart };
}

/** "For: 1,234,567  Against: 12,345" prose, for filings that print no table. */
function inlineVotes(text: string): VoteRow['votes'] | null {
  const votes: VoteRow['votes'] = {};
  const pattern = /\b(For|Against|Withheld|Withhold|Abstain(?:ed|ing)?|Abstentions?|Broker Non-Votes)\s*[:–—-]?\s*(\d{1,3}(?:,\d{3})+|\d+)\b/g;
  for (const match of text.matchAll(pattern)) {
    const column = columnOf(match[1]!);
    if (column && !(column in votes)) votes[column] = countOf(match[2]!);
  }
  return Object.keys(votes).length ? votes : null;
}

function proposalsOf(block: ProposalBlock): VoteProposal[] {
  const { rows, tableStart } = tableRows(block.lines);
  const descriptionLines = (tableStart >= 0 ? block.lines.slice(0, tableStart) : block.lines).map((l) => l.trim());
  const description = descriptionLines.join('\n').split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ').trim();
  const nominees = rows.filter((r) => r.label);
  const proposalType = proposalTypeOf(description, nominees.length > 0);
  const outcome = outcomeOf(description, proposalType);
  // the sentence that states the result ("The stockholders ratified …"), else the proposal's first
  const stated = sentences(description);
  const source = spanOf(stated.find((s) => outcomeOf(s, proposalType) !== null) ?? stated[0], 'the proposal\'s paragraph holds no sentence, only its vote table');
  const entry = (votes: VoteRow['votes'], nominee?: string): VoteProposal => ({
    number: block.number,
    description,
    proposalType,
    ...(nominee ? { nominee } : {}),
    for: votes.for ?? null,
    against: votes.against ?? null,
    withheld: votes.withheld ?? null,
    abstain: votes.abstain ?? null,
    brokerNonVotes: votes.brokerNonVotes ?? null,
    ...(proposalType === 'say_on_frequency'
      ? { frequency: { oneYear: votes.oneYear ?? null, twoYears: votes.twoYears ?? null, threeYears: votes.threeYears ?? null, selected: selectedFrequency(description) } }
      : {}),
    outcome,
    ...source,
  });
  if (proposalType === 'director_election' && nominees.length) return nominees.map((r) => entry(r.votes, r.label!));
  if (rows.length) return [entry(rows[0]!.votes)];
  return [entry(inlineVotes(block.lines.join(' ')) ?? {})];
}

export function parseVotingResults(body: string): {
  meetingDate: string | null;
  meetingType: 'annual' | 'special' | null;
  proposals: VoteProposal[];
  parsingConfidence: Confidence;
} & SourceSpan {
  const { preamble, blocks } = proposalBlocks(body);
  const meetingSentence = sentences(preamble || body).find((s) => /\bmeeting\b/i.test(s) && datesIn(s).length) ?? null;
  const kind = (meetingSentence ?? body).match(/\b(annual|special)\b[^.]{0,40}\bmeeting\b/i)?.[1]?.toLowerCase() as 'annual' | 'special' | undefined;
  const proposals = blocks.flatMap(proposalsOf);
  const stated = body.match(/\b(?:considered|voted (?:on|upon)|acted (?:on|upon))\s+(\w+)\s+(?:proposals|matters)/i)?.[1]?.toLowerCase();
  const statedCount = stated ? (numberWords[stated] ?? (Number(stated) || null)) : null;
  const counted = (p: VoteProposal) => [p.for, p.against, p.withheld, p.abstain, p.frequency?.threeYears].some((v) => v != null);
  const parsingConfidence: Confidence = !proposals.length
    ? 'low'
    : blocks.every((b) => proposals.some((p) => p.number === b.number && counted(p))) && (statedCount === null || statedCount === blocks.length)
      ? 'high'
      : 'medium';
  // the event's source: the sentence naming the meeting, else the item's first
  const source = spanOf(meetingSentence ?? proseSentences(preamble || body)[0], 'the item holds no sentence, only vote tables');
  return { meetingDate: meetingSentence ? datesIn(meetingSentence)[0]! : null, meetingType: kind ?? null, proposals, parsingConfidence, ...source };
}
