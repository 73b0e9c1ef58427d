// Signals: fixed rules over what the ingest holds (8-K items, late-filing notices, 13D stakes, Form 4
// transactions, the dilution score's history), each with its strength formula, the rule in words,
// and the filings it rests on.
// Nothing is stored: a signal is recomputed from its evidence, and its id is a digest of its type
// and its evidence's accession numbers, so the same evidence always gives the same id. Here in the
// derived floor so that the ingest can announce new signals in the transaction that adds evidence.
import type { Db } from '../prisma/db.ts';
import type { DilutionRecord, Prisma } from '../prisma/generated/client/client.ts';
import type { OfficerChange, VoteProposal } from '../ingest/parsers/eightK/types.ts';
import type { OwnershipData } from '../ingest/parsers/ownership/insiderForms.ts';
import { digest } from '../core/rows.ts';
import { citationUrl, isoDay } from './citations.ts';
import type { DataCache } from './dataCache.ts';
import { dilutionRiseThreshold, scoreHistory, scoreRises, type ScoreRise } from './dilution/scoreHistory.ts';

export const signalTypes = {
  officer_departure: 'An 8-K Item 5.02 that states an officer or director leaves. Strength: min(1, 0.4 + 0.3 × people stated as departing); 0.3 when only the index names Item 5.02 (the item also covers appointments and pay, so a departure is possible, not known). A 5.02 document that states no departure is no signal.',
  auditor_change: 'An 8-K Item 4.01 (change in the certifying accountant). Strength by what happened to the former auditor: resigned or declined to stand 1.0, dismissed 0.8, a new auditor engaged only or not parsed 0.5, and 0.5 when only the index names Item 4.01.',
  non_reliance: 'An 8-K Item 4.02: issued financial statements should no longer be relied on. Strength 1.0 always (the strongest disclosure a company makes about its own statements).',
  failed_vote: 'An 8-K Item 5.07 whose vote table shows a proposal the holders did not approve (or a nominee not elected), or support below 70%. Support = for / (for + against + withheld); abstentions and broker non-votes are not counted; say-on-frequency votes are left out. Strength 1.0 when a flagged proposal failed (stated, or support below 50%); else (0.70 − lowest support) / 0.20. An index-only 5.07 gives no signal: the votes are not known.',
  late_filing: 'A notice of late filing (NT 10-K, NT 10-Q, NT 20-F). Strength: NT 10-K or NT 20-F 0.8, NT 10-Q 0.6, plus 0.2 (at most 1) when the company filed another such notice in the 365 days before, which is then evidence too. Amendments of a notice restate the same lateness and are no new signal.',
  activist_stake: 'A Schedule 13D (a holder above 5% who may seek to influence the company): SC 13D 1.0; an amendment (SC 13D/A), a change in a stake already disclosed, 0.6. The excerpt is the filing\'s Item 4 (purpose of the transaction) when its document was read.',
  insider_cluster_buying: 'At least 3 distinct reporting owners buying in the open market (Form 4 non-derivative transaction code P) within 30 days of the cluster\'s first purchase. Clusters are found oldest first and do not overlap. Strength: min(1, distinct insiders / 6).',
  insider_cluster_selling: 'At least 3 distinct reporting owners selling in the open market (Form 4 non-derivative transaction code S) within 30 days of the cluster\'s first sale. Clusters are found oldest first and do not overlap. Strength: min(1, distinct insiders / 6).',
  dilution_risk_rising: `The dilution score (GET /v1/dilution/score, the same method) recomputed as of each day one of the company's dilution records was filed, from only the records filed on or before that day (an offering document's, an 8-K item's, an XBRL fact's filing, or EDGAR's index), compared day to day: a rise of at least ${dilutionRiseThreshold} points (of 0–100) between consecutive such days, both scores known, is a signal. The evidence is the filings of the later day, which moved the score; each says the score before and after and the sub-ratings whose band rose. Strength: min(1, rise / 30) (a rise of 30 points, the width of about one composite band, or more is 1).`,
} as const;

export type SignalType = keyof typeof signalTypes;

export interface SignalEvidence {
  accessionNumber: string;
  form: string;
  filedAt: string | null;
  /** the 8-K item, when the evidence is one */
  item: string | null;
  citationUrl: string;
  /** the filing's own words, at most 600 characters */
  excerpt: string | null;
  excerptNullReason: 'document_not_held' | 'structured_form' | 'no_text' | null;
  /** what this filing shows, in words */
  detail: string;
}

export interface Signal {
  id: string;
  type: SignalType;
  strength: number;
  method: string;
  /** the filing date of the newest evidence (one known only from its document counts at its report date) */
  asOf: string;
  cik: string;
  companyName: string | null;
  evidence: SignalEvidence[];
}

const eventTypes = ['officer_change', 'auditor_change', 'restatement', 'voting_results'];
const lateForms = ['NT 10-K', 'NT 10-Q', 'NT 20-F'];
const stakeForms = ['SC 13D', 'SC 13D/A'];
const clusterWindowDays = 30;
const clusterMinimum = 3;

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

function excerptOf(data: unknown): string | null {
  const excerpt = (data as { excerpt?: unknown } | null)?.excerpt;
  if (typeof excerpt !== 'string' || !excerpt.trim()) return null;
  const text = excerpt.replace(/\s+/g, ' ').trim();
  return text.length > 600 ? `${text.slice(0, 597).replace(/\s+\S*$/, '')}…` : text;
}

/** `dated`: the date of evidence that states no filing date (a document read alone counts at its report date). */
function signal(type: SignalType, strength: number, cik: string, evidence: SignalEvidence[], dated: string | null = null): Signal {
  const accessions = [...new Set(evidence.map((e) => e.accessionNumber))].sort();
  const asOf = [...evidence.map((e) => e.filedAt ?? ''), dated ?? ''].sort().at(-1) ?? '';
  return { id: `sig_${digest('signal', type, ...accessions)}`, type, strength: round(strength), method: signalTypes[type], asOf, cik, companyName: null, evidence };
}

/** Support of a proposal: for / (for + against + withheld), or null without counts. */
export function supportOf(p: VoteProposal): number | null {
  const cast = (p.for ?? 0) + (p.against ?? 0) + (p.withheld ?? 0);
  return p.for == null || cast === 0 ? null : p.for / cast;
}

/** The proposals a failed_vote signal flags: not approved or not elected, or support below 70% (say-on-frequency left out). */
export function flaggedProposals(proposals: VoteProposal[]): { p: VoteProposal; support: number | null }[] {
  return proposals
    .filter((p) => p.proposalType !== 'say_on_frequency')
    .map((p) => ({ p, support: supportOf(p) }))
    .filter(({ p, support }) => p.outcome === 'not_approved' || p.outcome === 'not_elected' || (support !== null && support < 0.7));
}

export interface Clusterable {
  owner: string;
  date: string;
  evidence: SignalEvidence;
}

/**
 * Open-market clusters: oldest first, a cluster is every transaction within 30 days of its first;
 * with at least 3 distinct owners it is kept and the next starts after it, else the start moves on.
 */
export function clustersOf(rows: Clusterable[]): Clusterable[][] {
  const sorted = [...rows].sort((a, b) => a.date.localeCompare(b.date) || a.evidence.accessionNumber.localeCompare(b.evidence.accessionNumber));
  const clusters: Clusterable[][] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end < sorted.length && days(sorted[start]!.date, sorted[end]!.date) <= clusterWindowDays) end += 1;
    const members = sorted.slice(start, end);
    if (new Set(members.map((m) => m.owner)).size >= clusterMinimum) {
      clusters.push(members);
      start = end;
    } else start += 1;
  }
  return clusters;
}

const eventSelect = {
  accessionNumber: true,
  cik: true,
  item: true,
  type: true,
  fromIndexOnly: true,
  filedAt: true,
  data: true,
  filing: { select: { form: true, filedAt: true, orderedAt: true, primaryDocument: true, cik: true } },
} satisfies Prisma.FilingEventSelect;
type EventRow = Prisma.FilingEventGetPayload<{ select: typeof eventSelect }>;

function eventEvidence(e: EventRow, detail: string): SignalEvidence {
  const excerpt = e.fromIndexOnly ? null : excerptOf(e.data);
  return {
    accessionNumber: e.accessionNumber!,
    form: e.filing!.form,
    filedAt: isoDay(e.filing!.filedAt ?? e.filedAt),
    item: e.item,
    citationUrl: citationUrl(e.filing!.cik, e.accessionNumber!, e.filing!.primaryDocument),
    excerpt,
    excerptNullReason: excerpt ? null : e.fromIndexOnly ? 'document_not_held' : 'no_text',
    detail,
  };
}

function fromEvent(e: EventRow): Signal | null {
  const cik = e.filing!.cik;
  const data = e.data as Record<string, unknown>;
  const dated = e.filing!.filedAt || e.filedAt ? null : isoDay(e.filing!.orderedAt);
  const signal_ = (type: SignalType, strength: number, evidence: SignalEvidence[]) => signal(type, strength, cik, evidence, dated);
  switch (e.type) {
    case 'officer_change': {
      if (e.fromIndexOnly) return signal_('officer_departure', 0.3, [eventEvidence(e, 'The index names Item 5.02; the document was not read.')]);
      const leaving = ((data.changes as OfficerChange[] | undefined) ?? []).filter((c) => c.change === 'departure');
      if (!leaving.length) return null;
      const who = leaving.map((c) => `${c.person}${c.position ? ` (${c.position})` : ''}${c.effectiveDate ? `, effective ${c.effectiveDate}` : ''}`).join('; ');
      return signal_('officer_departure', 0.4 + 0.3 * leaving.length, [eventEvidence(e, `Departing: ${who}.`)]);
    }
    case 'auditor_change': {
      if (e.fromIndexOnly) return signal_('auditor_change', 0.5, [eventEvidence(e, 'The index names Item 4.01; the document was not read.')]);
      const change = typeof data.change === 'string' ? data.change : 'other';
      const strength = change === 'resigned' || change === 'declined' ? 1 : change === 'dismissed' ? 0.8 : 0.5;
      const former = typeof data.formerAuditor === 'string' ? data.formerAuditor : 'the former auditor';
      const next = typeof data.newAuditor === 'string' ? `; ${data.newAuditor} engaged` : '';
      return signal_('auditor_change', strength, [eventEvidence(e, `${former}: ${change}${next}.`)]);
    }
    case 'restatement': {
      const periods = Array.isArray(data.affectedPeriods) && data.affectedPeriods.length ? ` Periods: ${(data.affectedPeriods as string[]).join('; ')}.` : '';
      return signal_('non_reliance', 1, [eventEvidence(e, e.fromIndexOnly ? 'The index names Item 4.02; the document was not read.' : `Non-reliance on previously issued financial statements.${periods}`)]);
    }
    case 'voting_results': {
      if (e.fromIndexOnly) return null;
      const flagged = flaggedProposals((data.proposals as VoteProposal[] | undefined) ?? []);
      if (!flagged.length) return null;
      const failed = flagged.some(({ p, support }) => p.outcome === 'not_approved' || p.outcome === 'not_elected' || (support !== null && support < 0.5));
      const lowest = Math.min(...flagged.map(({ support }) => support ?? 0));
      const detail = flagged
        .map(({ p, support }) => `Proposal ${p.number}${p.nominee ? ` (${p.nominee})` : ''}, ${p.proposalType.replace(/_/g, ' ')}: ${support === null ? 'support not counted' : `${(support * 100).toFixed(1)}% support`}${p.outcome ? `, ${p.outcome.replace(/_/g, ' ')}` : ''}`)
        .join('; ');
      return signal_('failed_vote', failed ? 1 : (0.7 - lowest) / 0.2, [eventEvidence(e, `${detail}.`)]);
    }
    default:
      return null;
  }
}

const filingSelect = { accessionNumber: true, cik: true, form: true, filedAt: true, orderedAt: true, primaryDocument: true, documentSourceKey: true } satisfies Prisma.FilingSelect;
type FilingRow = Prisma.FilingGetPayload<{ select: typeof filingSelect }>;

function filingEvidence(f: FilingRow, detail: string, excerpt: string | null = null): SignalEvidence {
  return {
    accessionNumber: f.accessionNumber,
    form: f.form,
    filedAt: isoDay(f.filedAt ?? f.orderedAt),
    item: null,
    citationUrl: citationUrl(f.cik, f.accessionNumber, f.primaryDocument),
    excerpt,
    excerptNullReason: excerpt ? null : f.documentSourceKey === null ? 'document_not_held' : 'no_text',
    detail,
  };
}

function lateFilings(rows: FilingRow[]): Signal[] {
  const byCik = new Map<string, FilingRow[]>();
  for (const f of rows) byCik.set(f.cik, [...(byCik.get(f.cik) ?? []), f]);
  const signals: Signal[] = [];
  for (const [cik, filings] of byCik) {
    const notices = filings.filter((f) => !f.form.endsWith('/A')).sort((a, b) => a.orderedAt.getTime() - b.orderedAt.getTime());
    notices.forEach((f, i) => {
      const at = isoDay(f.filedAt ?? f.orderedAt)!;
      const before = notices.slice(0, i).reverse().find((p) => days(isoDay(p.filedAt ?? p.orderedAt)!, at) <= 365);
      const base = f.form === 'NT 10-Q' ? 0.6 : 0.8;
      const evidence = [filingEvidence(f, `Notice that the ${f.form.slice(3)} will be late.`)];
      if (before) evidence.push(filingEvidence(before, `An earlier notice of a late ${before.form.slice(3)}, within 365 days.`));
      signals.push(signal('late_filing', base + (before ? 0.2 : 0), cik, evidence));
    });
  }
  return signals;
}

/** A dilution record's own words: an offering document's sentence or an 8-K item's text (an XBRL fact or an index entry has none). */
function recordExcerpt(r: DilutionRecord): Pick<SignalEvidence, 'excerpt' | 'excerptNullReason'> {
  if (r.fromIndexOnly) return { excerpt: null, excerptNullReason: 'document_not_held' };
  if (r.method === 'xbrl_fact') return { excerpt: null, excerptNullReason: 'structured_form' };
  const words = r.method === 'eight_k_item' ? ((r.values as { excerpt?: unknown }).excerpt ?? r.sourceSpan) : r.sourceSpan;
  const excerpt = excerptOf({ excerpt: words });
  return excerpt ? { excerpt, excerptNullReason: null } : { excerpt: null, excerptNullReason: 'no_text' };
}

const bandRank: Record<string, number> = { unknown: 0, low: 1, moderate: 2, elevated: 3, high: 4 };

/** A rise of the dilution score: the filings of its later day, each with the records it added. */
function dilutionRise(cik: string, { from, to, rise }: ScoreRise): Signal | null {
  const byFiling = new Map<string, DilutionRecord[]>();
  for (const r of to.filed) if (r.accessionNumber) byFiling.set(r.accessionNumber, [...(byFiling.get(r.accessionNumber) ?? []), r]);
  if (!byFiling.size) return null;
  const raised = (Object.keys(to.bands) as (keyof typeof to.bands)[]).filter((k) => bandRank[to.bands[k]] > bandRank[from.bands[k]]).map((k) => `${k} ${from.bands[k]} → ${to.bands[k]}`);
  const moved = `Dilution score ${from.score} (${from.band}) as of ${from.filedAt} → ${to.score} (${to.band}) as of ${to.filedAt}, +${rise}${raised.length ? `; ${raised.join(', ')}` : ''}.`;
  const evidence = [...byFiling].sort(([a], [b]) => a.localeCompare(b)).map(([accessionNumber, rows]): SignalEvidence => {
    const first = rows.find((r) => !r.fromIndexOnly) ?? rows[0]!;
    const kinds = [...new Set(rows.map((r) => r.kind.replace(/_/g, ' ')))].join(', ');
    return {
      accessionNumber,
      form: first.form ?? 'unknown',
      filedAt: to.filedAt,
      item: (first.values as { item?: string }).item ?? null,
      citationUrl: first.citationUrl ?? citationUrl(cik, accessionNumber),
      ...recordExcerpt(first),
      detail: `${moved} This filing added: ${kinds}.`,
    };
  });
  return signal('dilution_risk_rising', rise / 30, cik, evidence);
}

/** The rises of one company's dilution score between the days its dilution records were filed. */
const companyRises = (cik: string, records: DilutionRecord[], hasIndex: boolean): Signal[] =>
  scoreRises(scoreHistory(records, hasIndex)).map((rise) => dilutionRise(cik, rise)).filter((s): s is Signal => s !== null);

/** Each company's dilution records. */
async function recordsByCompany(db: Db, ciks: string[] | null): Promise<Map<string, DilutionRecord[]>> {
  const byCik = new Map<string, DilutionRecord[]>();
  for (const r of await db.dilutionRecord.findMany({ where: ciks ? { cik: { in: ciks } } : {} })) byCik.set(r.cik, [...(byCik.get(r.cik) ?? []), r]);
  return byCik;
}

/**
 * The rises of each company's dilution score between the days its dilution records were filed.
 * With `kept`, each company's rises are kept under the version of its records: materializeDilution,
 * their one writer, replaces a company's records and its profile row (rules version, time built)
 * together, so a read recomputes only the companies rebuilt since it was last computed.
 */
async function dilutionRises(db: Db, ciks: string[] | null, kept: DataCache | null): Promise<Signal[]> {
  const company = ciks ? { cik: { in: ciks } } : {};
  const [profiles, entities] = await Promise.all([
    kept ? db.dilutionProfile.findMany({ where: company, select: { cik: true, version: true, builtAt: true } }) : [],
    db.entity.findMany({ where: { ...company, hasSubmissions: true }, select: { cik: true } }),
  ]);
  const indexed = new Set(entities.map((e) => e.cik));
  if (!kept) return [...(await recordsByCompany(db, ciks))].flatMap(([cik, rows]) => companyRises(cik, rows, indexed.has(cik)));
  const prefix = 'dilution-rises:';
  const versions = new Map(profiles.map((p) => [`${prefix}${p.cik}`, `${p.version}:${p.builtAt.toISOString()}:${indexed.has(p.cik)}`]));
  const rises = await kept.versionedEach(
    versions,
    async (missing) => {
      const ciks = missing.map((key) => key.slice(prefix.length));
      const byCik = await recordsByCompany(db, ciks);
      return new Map(ciks.map((cik) => [`${prefix}${cik}`, companyRises(cik, byCik.get(cik) ?? [], indexed.has(cik))]));
    },
    [] as Signal[],
  );
  return [...rises.values()].flat();
}

/**
 * The signals of these companies (all held companies when `ciks` is null), unordered. `kept`: where
 * a reader keeps the dilution score rises between reads (none inside an ingest's transaction).
 */
export async function computeSignals(db: Db, ciks: string[] | null, kept: DataCache | null = null): Promise<Signal[]> {
  const company = ciks ? { cik: { in: ciks } } : {};
  const [events, late, stakes, stakeRecords, insiderForms] = await Promise.all([
    db.filingEvent.findMany({ where: { ...company, type: { in: eventTypes }, accessionNumber: { not: null }, filing: { isNot: null } }, select: eventSelect }),
    db.filing.findMany({ where: { ...company, form: { in: [...lateForms, ...lateForms.map((f) => `${f}/A`)] } }, select: filingSelect }),
    db.filing.findMany({ where: { ...company, form: { in: stakeForms } }, select: filingSelect }),
    db.formRecord.findMany({ where: { ...company, family: '13DG', isSample: false, accessionNumber: { not: null }, formType: { in: ['SC 13D', 'SC 13D/A', 'SCHEDULE 13D', 'SCHEDULE 13D/A'] } }, select: { accessionNumber: true, cik: true, formType: true, filedAt: true, orderedAt: true, data: true } }),
    db.formRecord.findMany({ where: { ...company, family: 'OWNERSHIP', isSample: false, accessionNumber: { not: null }, formType: { in: ['4', '4/A'] } }, select: { accessionNumber: true, cik: true, formType: true, filedAt: true, orderedAt: true, data: true } }),
  ]);
  const signals: Signal[] = events.map(fromEvent).filter((s): s is Signal => s !== null);
  signals.push(...lateFilings(late));
  signals.push(...(await dilutionRises(db, ciks, kept)));

  // a 13D stake: the Filing row (index or document) and the structured record (its Item 4) of one accession
  const purposes = new Map(stakeRecords.map((r) => [r.accessionNumber!, (r.data as { purposeOfTransaction?: string | null }).purposeOfTransaction ?? null]));
  const stakeFilings = new Map(stakes.map((f) => [f.accessionNumber, f]));
  for (const r of stakeRecords) {
    if (r.cik && !stakeFilings.has(r.accessionNumber!)) {
      stakeFilings.set(r.accessionNumber!, { accessionNumber: r.accessionNumber!, cik: r.cik, form: r.formType.replace(/^SCHEDULE/, 'SC'), filedAt: r.filedAt, orderedAt: r.orderedAt, primaryDocument: null, documentSourceKey: 'form_record' });
    }
  }
  for (const f of stakeFilings.values()) {
    const purpose = purposes.get(f.accessionNumber) ?? null;
    const amended = f.form.endsWith('/A');
    const excerpt = purpose ? excerptOf({ excerpt: purpose }) : null;
    signals.push(signal('activist_stake', amended ? 0.6 : 1, f.cik, [{ ...filingEvidence(f, amended ? 'An amended Schedule 13D: a change in a disclosed stake above 5%.' : 'A Schedule 13D: a new stake above 5% whose holder may seek to influence the company.', excerpt), ...(purpose === null && purposes.has(f.accessionNumber) ? { excerptNullReason: 'no_text' as const } : {}) }]));
  }

  // open-market Form 4 purchases and sales, per issuer
  const trades = new Map<string, { buy: Clusterable[]; sell: Clusterable[] }>();
  for (const form of insiderForms) {
    const data = form.data as unknown as OwnershipData;
    const cik = form.cik;
    if (!cik) continue;
    const owner = data.reportingOwners?.[0];
    const ownerKey = owner?.cik ?? owner?.name ?? form.accessionNumber!;
    for (const tx of data.nonDerivativeTransactions ?? []) {
      const code = tx.transactionCode;
      if ((code !== 'P' && code !== 'S') || !tx.transactionDate) continue;
      const entry = trades.get(cik) ?? { buy: [], sell: [] };
      trades.set(cik, entry);
      const detail = `${owner?.name ?? 'A reporting owner'} ${code === 'P' ? 'bought' : 'sold'} ${tx.shares ?? 'an unstated number of'} shares${tx.pricePerShare != null ? ` at $${tx.pricePerShare}` : ''} on ${tx.transactionDate} (code ${code}).`;
      const evidence: SignalEvidence = {
        accessionNumber: form.accessionNumber!,
        form: form.formType,
        filedAt: isoDay(form.filedAt ?? form.orderedAt),
        item: null,
        citationUrl: citationUrl(cik, form.accessionNumber!),
        excerpt: null,
        excerptNullReason: 'structured_form',
        detail,
      };
      (code === 'P' ? entry.buy : entry.sell).push({ owner: ownerKey, date: tx.transactionDate, evidence });
    }
  }
  for (const [cik, { buy, sell }] of trades) {
    for (const [type, rows] of [['insider_cluster_buying', buy], ['insider_cluster_selling', sell]] as const) {
      for (const cluster of clustersOf(rows)) {
        signals.push(signal(type, new Set(cluster.map((c) => c.owner)).size / 6, cik, cluster.map((c) => c.evidence)));
      }
    }
  }

  const names = new Map((await db.entity.findMany({ where: { cik: { in: [...new Set(signals.map((s) => s.cik))] } }, select: { cik: true, name: true } })).map((e) => [e.cik, e.name]));
  // the same evidence read twice (an index event and a document event of one filing) is one signal
  const unique = new Map(signals.map((s) => [s.id, { ...s, companyName: names.get(s.cik) ?? null }]));
  return [...unique.values()];
}

/**
 * The signals whose evidence includes one of these accession numbers: what an ingest that added them
 * created. A dilution score rise of these companies counts whatever its evidence: a record added for
 * one day changes the score of every later day, so a rise may rest on filings this ingest did not add.
 */
export async function signalsCreatedBy(db: Db, added: { cik: string; accessionNumber: string }[]): Promise<Signal[]> {
  if (!added.length) return [];
  const accessions = new Set(added.map((a) => a.accessionNumber));
  const signals = await computeSignals(db, [...new Set(added.map((a) => a.cik))]);
  return signals.filter((s) => s.type === 'dilution_risk_rising' || s.evidence.some((e) => accessions.has(e.accessionNumber)));
}
