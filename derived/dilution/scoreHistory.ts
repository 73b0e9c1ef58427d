// The dilution score as it stood on each day a dilution record's filing was filed: the documented
// method (score.ts) over only the records filed on or before that day, so each score is what a
// reader of EDGAR could have computed then. Pure: records in, scores out.
import type { DilutionRecord } from '../../prisma/generated/client/client.ts';
import { isoDay } from '../citations.ts';
import { scoreInputsOf } from './inputs.ts';
import { scoreOf, subRatingKeys, type Band, type SubRatingKey } from './score.ts';

/** The least rise of the composite score, in points of 0–100, between consecutive filing days that is a signal. */
export const dilutionRiseThreshold = 10;

export interface ScorePoint {
  /** the filing day, YYYY-MM-DD */
  filedAt: string;
  score: number | null;
  band: Band | 'unknown';
  bands: Record<SubRatingKey, Band | 'unknown'>;
  /** the records first filed that day (what moved the score), events first, then by id */
  filed: DilutionRecord[];
}

export interface ScoreRise {
  from: ScorePoint;
  to: ScorePoint;
  rise: number;
}

/** When a record became known: its filing date, else (a document that states none) the date it describes. */
const knownAt = (r: DilutionRecord) => isoDay(r.filedAt ?? r.date);

/** The score on each day a record was filed, oldest first. */
export function scoreHistory(records: DilutionRecord[], hasIndex: boolean): ScorePoint[] {
  // each record's day once: the days times the records comparisons below would otherwise format a date each
  const known = records.map(knownAt);
  const days = [...new Set(known.filter((d): d is string => d !== null))].sort();
  return days.map((day) => {
    const { inputs, why } = scoreInputsOf(records.filter((_, i) => (known[i] ?? '9999') <= day), hasIndex);
    const score = scoreOf(inputs, why);
    const bands = Object.fromEntries(subRatingKeys.map((k) => [k, score.ratings[k].band])) as ScorePoint['bands'];
    const filed = records.filter((_, i) => known[i] === day).sort((a, b) => Number(b.isEvent) - Number(a.isEvent) || a.id.localeCompare(b.id));
    return { filedAt: day, score: score.score, band: score.band, bands, filed };
  });
}

/** Consecutive filing days whose scores are both known and rise by at least the threshold. */
export function scoreRises(history: ScorePoint[], threshold = dilutionRiseThreshold): ScoreRise[] {
  const rises: ScoreRise[] = [];
  history.forEach((to, i) => {
    const from = history[i - 1];
    if (!from || from.score === null || to.score === null) return;
    const rise = Math.round((to.score - from.score) * 100) / 100;
    if (rise >= threshold) rises.push({ from, to, rise });
  });
  return rises;
}
