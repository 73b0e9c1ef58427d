// The AI query: a plain-English question compiled into catalogue reads and answered from them
// (resolvers/agentQuery/). Its own quota window, the `ai_query` class, at the GraphQL door too.
import { readScope, requireOrg } from '../resolvers/access.ts';
import { answerQuestion, type AgentAnswer, type Citation, type StepOutcome } from '../resolvers/agentQuery/answer.ts';
import type { PlannedStep } from '../resolvers/agentQuery/compile.ts';
import { prismaCompileEnv } from '../resolvers/monitors/compile.ts';
import { builder } from './builder.ts';

const AgentPlanStep = builder.objectRef<PlannedStep>('AgentPlanStep').implement({
  description: 'One read the question was compiled into: a catalogue route (its operationId, also its MCP tool) and the params it is called with.',
  fields: (t) => ({
    step: t.exposeInt('step'),
    route: t.exposeString('route', { description: 'The route\'s operationId, e.g. facts_get' }),
    params: t.field({ type: 'JSON', resolve: (s) => s.params, description: 'The route\'s query params, as a direct call would send them' }),
    reason: t.exposeString('reason'),
  }),
});

const AgentStep = builder.objectRef<StepOutcome>('AgentStep').implement({
  description: 'A planned read as it ran, as the caller, metered as that route.',
  fields: (t) => ({
    step: t.exposeInt('step'),
    route: t.exposeString('route'),
    status: t.exposeString('status', { description: '`ok`, or the not-found code the read answered (e.g. filing_not_found)' }),
    result: t.field({ type: 'JSON', resolve: (s) => s.result, description: 'The route\'s answer as its REST door gives it, or the not-found error' }),
  }),
});

const AgentCitation = builder.objectRef<Citation>('AgentCitation').implement({
  fields: (t) => ({
    accessionNumber: t.exposeString('accessionNumber'),
    citationUrl: t.exposeString('citationUrl'),
    what: t.exposeString('what', { description: 'What of the filing the answer rests on' }),
  }),
});

const AgentAnswerRef = builder.objectRef<AgentAnswer>('AgentAnswer').implement({
  description: 'A question about held data, what it was understood as, the reads it ran and the answer built from them.',
  fields: (t) => ({
    question: t.exposeString('question'),
    understood: t.field({ type: 'JSON', resolve: (a) => a.understood, description: 'company, subject, metric (label, concept), period, form, item, event: what the question was read as' }),
    plan: t.field({ type: [AgentPlanStep], resolve: (a) => a.plan }),
    steps: t.field({ type: [AgentStep], resolve: (a) => a.steps }),
    answer: t.exposeString('answer'),
    citations: t.field({ type: [AgentCitation], resolve: (a) => a.citations }),
  }),
});

builder.mutationFields((t) => ({
  agentQuery: t.field({
    // a read: a `read` key may ask; counted in the ai_query window at the GraphQL door (graphql/meters.ts)
    extensions: { ...readScope, ownWindow: 'ai_query' },
    type: AgentAnswerRef,
    description: 'Answer a plain-English question about held data: compiled deterministically into catalogue reads, each run as the caller (metered as that read), or refused 422 question_not_understood with what was understood and what was missing.',
    args: { question: t.arg.string({ required: true }) },
    resolve: (_root, { question }, ctx) => answerQuestion(ctx, question, prismaCompileEnv(ctx.prisma, requireOrg(ctx))),
  }),
}));
