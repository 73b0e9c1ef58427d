// Item 4.02: which financial statements should no longer be relied upon. Only sentences about
// non-reliance or restatement count: the same item often names other periods (the 10-K that
// reported the weakness, say) that are not affected.
import type { Confidence } from './types.ts';
import { datesIn, sentences, spanOf, writtenDate, type SourceSpan } from './text.ts';

const listOf = (one: string) => String.raw`${one}(?:(?:,\s*(?:and\s+)?|\s+and\s+)${one})*`;

const periodPatterns = [
  // "fiscal year ended December 31, 2023", "quarterly periods ended March 31, 2024 and June 30, 2024"
  new RegExp(String.raw`\b(?:(?:fiscal|calendar|interim)\s+)?(?:(?:three|six|nine|twelve)[- ]months?\s+)?(?:years?|quarters?|quarterly periods?|periods?|months?)\s+ended\s+${listOf(writtenDate)}`, 'gi'),
  // "fiscal years 2022 and 2023"
  new RegExp(String.raw`\bfiscal (?:years?|quarters?)\s+${listOf(String.raw`\d{4}`)}\b`, 'gi'),
  // "first quarter of 2024"
  new RegExp(String.raw`\b(?:first|second|third|fourth) (?:fiscal )?quarters? of (?:fiscal (?:year )?)?\d{4}\b`, 'gi'),
];

const aboutReliance = /relied upon|relied on|non-?reliance|restate|restatement/i;

function periodsIn(text: string): string[] {
  return periodPatterns
    .flatMap((pattern) => [...text.matchAll(pattern)].map((m) => ({ at: m.index!, phrase: m[0].trim() })))
    .sort((a, b) => a.at - b.at)
    .map((p) => p.phrase);
}

export function parseRestatement(body: string): { affectedPeriods: string[]; periodEnds: string[]; confidence: Confidence } & SourceSpan {
  const relevant = sentences(body).filter((s) => aboutReliance.test(s));
  const fromReliance = [...new Set(relevant.flatMap(periodsIn))];
  // without a period in the non-reliance statement itself, any period the item names is a guess
  const affectedPeriods = fromReliance.length ? fromReliance : [...new Set(periodsIn(body))];
  const confidence: Confidence = fromReliance.length ? 'high' : relevant.length && affectedPeriods.length ? 'medium' : 'low';
  // the non-reliance statement itself, the first that names a period when one does
  const sentence = relevant.find((s) => periodsIn(s).length) ?? relevant[0];
  return { affectedPeriods, periodEnds: [...new Set(affectedPeriods.flatMap(datesIn))], confidence, ...spanOf(sentence, 'no sentence of the item speaks of non-reliance or a restatement') };
}
