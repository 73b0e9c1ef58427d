// Answering a compiled question: each planned read runs as the caller through the one request
// pipeline (authorized, metered and billed as the same read called directly), and the answer is
// a sentence built from what the reads returned, citing the filings it rests on. The pipeline sits
// in the catalogue, above this domain, so the catalogue hands its runner down once it is built.
import { ApiError } from '../../core/errors.ts';
import type { Context } from '../context.ts';
import { compileQuestion, type CompiledQuestion, type PlannedStep } from './compile.ts';
import type { CompileEnv } from '../monitors/compile.ts';

/** Runs the catalogue route `name` with these query params as the caller of `ctx`, under its own request id. */
export type StepRunner = (ctx: Context, name: string, query: Record<string, string | number>, requestId: string) => Promise<unknown>;

let runner: StepRunner | undefined;

/** Called by the route catalogue once its table is built. */
export function provideStepRunner(run: StepRunner): void {
  runner = run;
}

export interface StepOutcome {
  step: number;
  route: string;
  /** `ok`, or the code of the not-found answer the read gave */
  status: string;
  result: unknown;
}

export interface Citation {
  accessionNumber: string;
  citationUrl: string;
  what: string;
}

export interface AgentAnswer extends CompiledQuestion {
  question: string;
  steps: StepOutcome[];
  answer: string;
  citations: Citation[];
}

type Row = Record<string, any>;

export async function answerQuestion(ctx: Context, question: string, env: Pick<CompileEnv, 'findCompany'>): Promise<AgentAnswer> {
  if (!runner) throw new Error('The route catalogue has not been loaded, so no question can be answered yet.');
  const compiled = await compileQuestion(question, env);
  const steps: StepOutcome[] = [];
  for (const planned of compiled.plan) {
    try {
      const result = await runner(ctx, planned.route, planned.params, `${ctx.requestId}_step${planned.step}`);
      steps.push({ step: planned.step, route: planned.route, status: 'ok', result });
    } catch (error) {
      // Nothing held is an answer ("no such filing"); any other refusal (a full window, no credit,
      // a scope) is the caller's, as it would be for the read called directly.
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      steps.push({ step: planned.step, route: planned.route, status: error.code, result: { code: error.code, message: error.message } });
    }
  }
  const { answer, citations } = phrase(compiled, compiled.plan[0]!, steps[0]!);
  return { question, ...compiled, steps, answer, citations };
}

/** "365817000000" → "365,817,000,000"; the digits as filed, never through a float. */
export function grouped(value: string): string {
  const [whole, fraction] = value.replace(/^-/, '').split('.');
  const digits = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value.startsWith('-') ? '-' : ''}${digits}${fraction ? `.${fraction}` : ''}`;
}

function phrase({ understood }: CompiledQuestion, planned: PlannedStep, outcome: StepOutcome): { answer: string; citations: Citation[] } {
  const name = understood.company.name;
  if (outcome.status !== 'ok') return { answer: `${(outcome.result as { message: string }).message}`, citations: [] };
  const body = outcome.result as Row;
  switch (understood.subject) {
    case 'metric': {
      const metric = understood.metric!;
      const fact = (body.facts as Row[])[0];
      const when = planned.params.fp && planned.params.fp !== 'FY' ? `fiscal ${planned.params.fp} ${planned.params.fy}` : planned.params.fy ? `fiscal year ${planned.params.fy}` : 'its latest reported period';
      if (!fact) return { answer: `No ${metric.label} of ${name} for ${when} is held (${body.explanation}).`, citations: [] };
      const year = fact.fy && fact.fp ? (fact.fp === 'FY' ? `fiscal year ${fact.fy}` : `fiscal ${fact.fp} ${fact.fy}`) : `the period ending ${fact.periodEnd}`;
      const span = fact.periodStart ? `${fact.periodStart} to ${fact.periodEnd}` : `as of ${fact.periodEnd}`;
      // net income and net loss are one line: its sign says which was reported
      const loss = metric.concept === 'NetIncomeLoss' && String(fact.value).startsWith('-');
      const said = metric.concept === 'NetIncomeLoss' ? (loss ? 'a net loss' : 'net income') : metric.label;
      return {
        answer: `${name} reported ${said} of ${grouped(loss ? String(fact.value).slice(1) : fact.value)} ${fact.unit} for ${year} (${span}; ${fact.form} ${fact.accessionNumber}).`,
        citations: [{ accessionNumber: fact.accessionNumber, citationUrl: fact.citationUrl, what: `${fact.tag} ${span}, as filed in ${fact.form}` }],
      };
    }
    case 'latest_filing': {
      if (planned.route === 'filings_search') return listed(body.data, `${understood.form} filings of ${name} filed in ${planned.params.filed_from?.toString().slice(0, 4)}`, (f) => `${f.form} filed ${f.filedAt}`);
      const period = body.reportDate ? ` for the period ending ${body.reportDate}` : '';
      return {
        answer: `${name}'s latest ${body.form} is ${body.accessionNumber}, filed ${body.filedAt}${period}.`,
        citations: [{ accessionNumber: body.accessionNumber, citationUrl: body.citationUrl, what: `${body.form} filed ${body.filedAt}` }],
      };
    }
    case 'events':
      return listed(body.data, `${understood.event!.title} of ${name}`, (e) => `${e.object} filed ${e.filedAt}${e.eventDate ? `, event dated ${e.eventDate}` : ''}`);
    case 'filings_with_item':
      return listed(body.data, `8-K filings of ${name} reporting item ${understood.item!.number}${understood.item!.name ? ` (${understood.item!.name})` : ''}`, (f) => `8-K filed ${f.filedAt}`);
    case 'insider_transactions':
      return listed(body.data, `insider transactions of ${name}`, (t) => `Form ${t.formType} filed ${t.filedAt}${t.transactionCode ? `, code ${t.transactionCode}` : ''}`);
    case 'dilution_score': {
      if (body.score === null) return { answer: `${name}'s dilution score cannot be computed from the records held (missing: ${(body.missing as string[]).join(', ') || 'inputs'}).`, citations: [] };
      return { answer: `${name}'s dilution score is ${body.score} of 100 (${body.band}, confidence ${body.confidence}) as of ${body.asOf}, by methodology ${body.methodologyVersion}.`, citations: sourcesOf(body.inputs) };
    }
  }
}

/** A list read: how many the page holds and the newest of them, each cited. */
function listed(rows: Row[], what: string, describe: (row: Row) => string): { answer: string; citations: Citation[] } {
  const cited = rows.filter((r) => r.accessionNumber && r.citationUrl);
  const citations = cited.filter((r, i) => cited.findIndex((o) => o.accessionNumber === r.accessionNumber) === i).map((r) => ({ accessionNumber: r.accessionNumber, citationUrl: r.citationUrl, what: describe(r) }));
  if (!rows.length) return { answer: `No ${what} are held.`, citations };
  const newest = rows[0]!;
  return { answer: `${rows.length === 1 ? 'One' : `The ${rows.length} newest`} ${what}: the newest is ${describe(newest)}${newest.accessionNumber ? ` (${newest.accessionNumber})` : ''}.`, citations };
}

/** The filings a dilution score's inputs came from, each once. */
function sourcesOf(inputs: Record<string, unknown>): Citation[] {
  const out: Citation[] = [];
  for (const [key, input] of Object.entries(inputs ?? {})) {
    const source = (input as Row | null)?.source as Row | undefined;
    if (source?.accessionNumber && source.citationUrl && !out.some((c) => c.accessionNumber === source.accessionNumber)) out.push({ accessionNumber: source.accessionNumber, citationUrl: source.citationUrl, what: `dilution input ${key}` });
  }
  return out;
}
