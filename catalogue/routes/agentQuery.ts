// The AI query (SPEC 8.4): a plain-English question about held data, compiled deterministically
// into reads of this catalogue and answered from them. Its own capped windows (`ai_query`, a
// monthly one among them; 429 ai_query_quota_exceeded); every read it runs is charged as that read besides.
import { z } from 'zod';
import { AgentQueryDocument } from '../operations/generated.ts';
import { operationRoute } from '../route.ts';
import { maxQuestionLength } from '../../resolvers/agentQuery/compile.ts';

const description = [
  'Compiles the question, without a model and the same way every time, into a plan of reads of this API (`plan`: each route\'s operationId, which is also its MCP tool, with the params a direct call would send), runs each as the caller, and answers a sentence built from what they returned, citing the filings it rests on.',
  'It understands one company (ticker, CIK or name) and one of: a line item for a fiscal year, a fiscal quarter or the latest one (revenue, net income or loss, diluted EPS, operating income, total assets, total liabilities, stockholders\' equity, long-term debt, cash: `facts_get`); its latest filing of a form (`filings_latest`), or its filings of a form in a year (`filings_search`); its 8-K events of a kind (officer changes, auditor changes, restatements, vote results, M&A: `events_*_list`) or 8-K filings reporting an item (`filings_search`); its insider transactions (`insiders_transactions_list`); its dilution score (`dilution_score_get`). `understood` says what was recognised.',
  'A question without a company or a subject, asking two things, or with words nothing accounts for is refused 422 `question_not_understood`, its `details` holding `understood`, `missing` and `notUnderstood`: it is never answered by a guess.',
  'Metering: each question counts one `ai_query` (capped windows of its own: a minute, a day and a calendar month in UTC, which starts again at 00:00 UTC on the 1st; see GET /v1/limits), refused past any of them with 429 `ai_query_quota_exceeded` and `Retry-After` (seconds until that window starts again; `details.period` names it); each read the plan runs is then authorized, metered and billed as that route called directly (usually `data_read`), and refused alike (a full window of its class, no credit). A read that finds nothing answers the step with its not-found code instead.',
].join('\n\n');

const step = z.object({ step: z.number().int(), route: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])), reason: z.string() });

export const agentQueryRoutes = [
  operationRoute({
    name: 'agent_query',
    method: 'POST',
    path: '/v1/agent/query',
    summary: 'Answer a plain-English question about held data from this API\'s reads, cited',
    description,
    tag: 'Agent',
    access: 'org',
    meter: 'ai_query',
    mcp: true,
    params: { body: z.strictObject({ question: z.string().min(1).max(maxQuestionLength).describe('The question, e.g. "What was Apple\'s revenue in fiscal 2021?"') }) },
    response: z.object({
      object: z.literal('agent_answer'),
      question: z.string(),
      understood: z.record(z.string(), z.unknown()).describe('company, subject, metric, period, form, item, event: what the question was read as'),
      plan: z.array(step),
      steps: z.array(z.object({ step: z.number().int(), route: z.string(), status: z.string().describe('`ok`, or the not-found code the read answered'), result: z.unknown() })),
      answer: z.string(),
      citations: z.array(z.object({ accessionNumber: z.string(), citationUrl: z.string(), what: z.string() })),
      requestId: z.string(),
    }),
    errors: ['question_not_understood', 'ai_query_quota_exceeded'],
    operation: AgentQueryDocument,
    variables: ({ body }) => ({ question: body.question }),
  }).reshape(({ agentQuery: a }, meta) => ({
    object: 'agent_answer',
    question: a.question,
    understood: a.understood as Record<string, unknown>,
    plan: a.plan.map((s) => ({ ...s, params: s.params as Record<string, string | number> })),
    steps: a.steps,
    answer: a.answer,
    citations: a.citations,
    ...meta,
  })),
];
