// A plain-English question about held data to a plan of catalogue reads, deterministically and
// offline, with the monitor compiler's pieces (resolvers/monitors/compile.ts): its scan, its
// vocabulary of forms, 8-K items and events and line items, and its company lookup. A question is
// compiled whole or refused with what was understood and what was missing: a word that no pattern
// and no company claims is a refusal, never a guess.
import { ApiError } from '../../core/errors.ts';
import { lineItems } from '../../derived/concepts.ts';
import { eventTitles, findCompanies, findEvents, findForms, itemEvents, itemNames, metrics, Scan, stopWords, wordy, type CompileEnv, type Intent, type Span } from '../monitors/compile.ts';

export const maxQuestionLength = 500;

export interface Company {
  cik: string;
  name: string;
  ticker: string | null;
}

/** What the question was read as; absent keys were not said. */
export interface Understood {
  company?: Company;
  /** what is looked up */
  subject?: 'metric' | 'latest_filing' | 'filings_with_item' | 'events' | 'dilution_score' | 'insider_transactions';
  metric?: { label: string; concept: string };
  period?: { fiscalYear: number; fiscalPeriod: 'FY' | 'Q1' | 'Q2' | 'Q3' | 'Q4' } | { latest: true };
  form?: string;
  item?: { number: string; name: string | null };
  event?: { type: string; title: string };
}

export interface PlannedStep {
  step: number;
  route: string;
  params: Record<string, string | number>;
  reason: string;
}

export interface CompiledQuestion {
  understood: Understood & { company: Company; subject: NonNullable<Understood['subject']> };
  plan: PlannedStep[];
}

/** The statement line a tag is one of: the facts read then stitches every tag the issuer used for it. */
const lineOf = (tag: string) => lineItems.find((line) => line.candidates.some((ref) => ref.tag === tag));

/** The framing of a question ("what was … in …"): words that ask, not what is asked about. */
const questionWords = new Set(
  `what whats what's which who whom how much many show give tell list find look lookup up see can could would should will
   was were is are did does do has have had been be
   me please value amount number figure figures total totals
   fiscal year years fy quarter quarters period
   recent recently most last newest current currently latest lately
   ended ending end during over there their its his her
   score rating risk`.split(/\s+/),
);

type Subject = { kind: 'dilution'; span: Span } | { kind: 'insiders'; span: Span };
type Found = Intent | Subject;

function refuse(message: string, understood: Understood, missing: string[], notUnderstood: string[]): never {
  throw new ApiError('question_not_understood', message, {
    details: { parameter: 'question', understood, missing, notUnderstood },
    hint: 'Ask about one company: a line item for a fiscal year or its latest (revenue, net income, EPS, total assets, cash…), its latest filing of a form, its 8-K events of a kind (officer changes, auditor changes…), its dilution score or its insider transactions.',
  });
}

const fiscalPeriods = ['Q1', 'Q2', 'Q3', 'Q4'] as const;

export async function compileQuestion(question: string, env: Pick<CompileEnv, 'findCompany'>): Promise<CompiledQuestion> {
  if (typeof question !== 'string' || !question.trim()) refuse('Ask a question: the text is empty.', {}, ['question'], []);
  if (question.length > maxQuestionLength) refuse(`The question is longer than ${maxQuestionLength} characters.`, {}, [], []);
  // "Apple's" is "Apple": the possessive is blanked, keeping every other character where it was
  const scan = new Scan(question.replace(/(?<=\w)['’]s\b/gi, '  ').replace(/(?<=\w)s['’](?=\s|$)/gi, 's '));
  const understood: Understood = {};

  let latest = false;
  let period: { fiscalYear: number; fiscalPeriod: 'FY' | 'Q1' | 'Q2' | 'Q3' | 'Q4' } | undefined;
  const year = (digits: string) => (digits.length === 2 ? 2000 + Number(digits) : Number(digits));
  scan.take(wordy(`q([1-4])\\s*(?:of\\s+)?(?:(?:fiscal\\s+)?(?:year\\s+)?|fy\\s*'?)((?:19|20)\\d{2}|\\d{2})|(?:first|second|third|fourth)\\s+quarter\\s+(?:of\\s+)?(?:fiscal\\s+(?:year\\s+)?)?((?:19|20)\\d{2})`), (m) => {
    const quarter = m[1] ? Number(m[1]) : ['first', 'second', 'third', 'fourth'].indexOf(m[0].split(/\s+/)[0]!.toLowerCase()) + 1;
    period = { fiscalYear: year(m[2] ?? m[3]!), fiscalPeriod: fiscalPeriods[quarter - 1]! };
  });
  scan.take(wordy(`(?:(?:in|for|of|during)\\s+)?(?:the\\s+)?(?:fiscal\\s+(?:year\\s+)?|fy\\s*'?)((?:19|20)\\d{2}|\\d{2})|(?:(?:in|for|of|during)\\s+)?((?:19|20)\\d{2})`), (m) => {
    if (period) return false;
    period = { fiscalYear: year(m[1] ?? m[2]!), fiscalPeriod: 'FY' };
  });
  scan.take(wordy('(?:the\\s+)?(?:latest|most\\s+recent|newest|last|current)'), () => void (latest = true));

  const found: Found[] = [];
  const add = (intent: Found) => void found.push(intent);
  scan.take(wordy('(?:8-?k\\s+)?items?\\s+(\\d{1,2}\\.\\d{2})(?:\\s+of\\s+(?:an?\\s+)?8-?k)?'), (m, span) => {
    const item = m[1]!;
    add(itemEvents[item] ? { kind: 'event', slug: itemEvents[item], span } : { kind: 'item', item, span });
  });
  scan.take(wordy('dilution(?:\\s+(?:risk\\s+)?(?:score|rating|risk))?'), (_, span) => add({ kind: 'dilution', span }));
  scan.take(wordy("insiders?(?:\\s+(?:trades?|trading|transactions?|buys?|buying|sells?|selling|purchases?|sales|activity|filings?))?|form\\s+4s?"), (_, span) => add({ kind: 'insiders', span }));
  for (const metric of metrics) scan.take(wordy(metric.pattern), (_, span) => add({ kind: 'metric', tag: metric.tag, label: metric.label, span }));
  findEvents(scan, add);
  findForms(scan, add);

  const questionWord = (w: { lower: string }) => questionWords.has(w.lower) || stopWords.has(w.lower);
  const companies = await findCompanies(scan, env, questionWord);
  const notUnderstood = companies.leftovers.filter((w) => !questionWord(w)).map((w) => w.text);
  const company = companies.company ? { cik: companies.company.cik, name: companies.company.name, ticker: companies.company.ticker } : undefined;
  if (company) understood.company = company;

  // A form beside what it narrows (a fact from a 10-K, an officer change reported on an 8-K) says
  // the same thing twice; any other pair asks two questions.
  const forms = found.filter((f): f is Extract<Intent, { kind: 'form' }> => f.kind === 'form');
  const subjects = found.filter((f) => f.kind !== 'form').sort((a, b) => a.span.start - b.span.start);
  const distinct = subjects.filter((s, i) => subjects.findIndex((o) => JSON.stringify({ ...o, span: 0 }) === JSON.stringify({ ...s, span: 0 })) === i);
  const form = forms[0]?.form;
  if (new Set(forms.map((f) => f.form)).size > 1) notUnderstood.push(...forms.slice(1).map((f) => scan.slice(f.span)));
  if (distinct.length > 1) notUnderstood.push(...distinct.slice(1).map((s) => scan.slice(s.span)));
  if (companies.others.length) notUnderstood.push(...companies.others.map((s) => scan.slice(s)));
  const primary = distinct[0];
  // offering and fund forms are listed by reads of their own, which a question does not reach
  if (primary?.kind === 'family') notUnderstood.push(scan.slice(primary.span));
  // a form narrows only what it reports: facts from 10-Ks and 10-Qs, events and items from 8-Ks
  const narrows = !primary || (primary.kind === 'metric' ? form === '10-K' || form === '10-Q' : primary.kind === 'event' || primary.kind === 'item' ? form === '8-K' : false);
  if (form && !narrows) notUnderstood.push(scan.slice(forms[0]!.span));

  if (period) understood.period = period;
  else if (latest) understood.period = { latest: true };
  if (form) understood.form = form;
  describe(understood, primary, form);

  const missing: string[] = [];
  if (!company) missing.push('company');
  if (!primary && !form) missing.push('what to look up (a line item such as revenue or net income, a form, an 8-K event, insider transactions or the dilution score)');
  if (missing.length || notUnderstood.length) {
    const parts = [missing.length ? `missing ${missing.join(' and ')}` : '', notUnderstood.length ? `not understood: ${notUnderstood.map((w) => `"${w}"`).join(', ')}` : ''].filter(Boolean);
    refuse(`The question cannot be answered as asked: ${parts.join('; ')}.`, understood, missing, notUnderstood);
  }
  const who: Record<string, string> = company!.ticker ? { ticker: company!.ticker } : { cik: company!.cik };
  const plan = planOf(primary, form, period, who, company!, understood);
  return { understood: understood as CompiledQuestion['understood'], plan };
}

function describe(understood: Understood, primary: Found | undefined, form: string | undefined): void {
  if (!primary) {
    if (form) understood.subject = 'latest_filing';
    return;
  }
  switch (primary.kind) {
    case 'metric':
      understood.subject = 'metric';
      understood.metric = { label: primary.label, concept: primary.tag };
      return;
    case 'event':
      understood.subject = 'events';
      understood.event = { type: primary.slug, title: eventTitles[primary.slug]! };
      return;
    case 'item':
      understood.subject = 'filings_with_item';
      understood.item = { number: primary.item, name: itemNames[primary.item] ?? null };
      return;
    case 'dilution':
      understood.subject = 'dilution_score';
      return;
    case 'insiders':
      understood.subject = 'insider_transactions';
      return;
    case 'family':
      return;
  }
}

function planOf(primary: Found | undefined, form: string | undefined, period: { fiscalYear: number; fiscalPeriod: string } | undefined, who: Record<string, string>, company: Company, understood: Understood): PlannedStep[] {
  const step = (route: string, params: Record<string, string | number>, reason: string): PlannedStep[] => [{ step: 1, route, params: { ...who, ...params }, reason }];
  const name = company.name;
  if (!primary) {
    return period
      ? step('filings_search', { form: form!, filed_from: `${period.fiscalYear}-01-01`, filed_to: `${period.fiscalYear}-12-31`, limit: 10 }, `${name}'s ${form} filings filed in ${period.fiscalYear}`)
      : step('filings_latest', { form: form!, view: 'agent' }, `${name}'s latest ${form} filing`);
  }
  switch (primary.kind) {
    case 'metric': {
      const line = lineOf(primary.tag);
      const quarterly = period ? period.fiscalPeriod !== 'FY' : form === '10-Q';
      const params: Record<string, string | number> = { tag: line?.key ?? primary.tag, form: quarterly ? '10-Q' : '10-K', limit: 5 };
      // a balance is read at an instant, a flow over the fiscal year or quarter (not the year to date)
      if (line) params.duration = line.statement === 'balanceSheet' ? 'instant' : quarterly ? '3m' : '12m';
      if (period) Object.assign(params, { fy: period.fiscalYear, fp: period.fiscalPeriod });
      const when = period ? `fiscal ${period.fiscalPeriod === 'FY' ? 'year' : period.fiscalPeriod} ${period.fiscalYear}` : `the latest ${quarterly ? 'quarter' : 'fiscal year'}`;
      return step('facts_get', params, `${name}'s ${primary.label} (facts of ${params.tag}) for ${when}, as its ${params.form} reported it`);
    }
    case 'event':
      return step(`events_${primary.slug.replace(/-/g, '_')}_list`, { limit: 5, view: 'agent', ...filedIn(period) }, `${name}'s ${understood.event!.title}, newest first`);
    case 'item':
      return step('filings_search', { form: '8-K', item: primary.item, limit: 5, view: 'agent', ...filedIn(period) }, `${name}'s 8-K filings reporting item ${primary.item}, newest first`);
    case 'dilution':
      return step('dilution_score_get', { view: 'agent' }, `${name}'s dilution score`);
    case 'insiders':
      return step('insiders_transactions_list', { limit: 10, view: 'agent', ...filedIn(period) }, `${name}'s insider transactions (Forms 4 and 5), newest first`);
    case 'family':
    case 'form':
      throw new Error('unreachable: forms and form families are described before planning');
  }
}

const filedIn = (period: { fiscalYear: number } | undefined): Record<string, string> => (period ? { filed_from: `${period.fiscalYear}-01-01`, filed_to: `${period.fiscalYear}-12-31` } : {});
