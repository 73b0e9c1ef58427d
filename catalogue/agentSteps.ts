// How an AI query runs the reads it planned (resolvers/agentQuery/answer.ts): each through the
// one request pipeline as the caller, so each is authorized, validated, metered and billed
// exactly as the same route called directly, and answers its REST door's body.
import { provideStepRunner } from '../resolvers/agentQuery/answer.ts';
import { routeAnswer, runPipeline } from './pipeline.ts';
import type { Route } from './route.ts';

export function provideAgentSteps(routes: Route[]): void {
  const byName = new Map(routes.map((route) => [route.name, route]));
  provideStepRunner(async (ctx, name, query, requestId) => {
    const route = byName.get(name);
    if (!route || route.method !== 'GET') throw new Error(`An AI query planned ${name}, which is not a read of the catalogue.`);
    const outcome = await runPipeline(ctx, { route, caller: { principal: ctx.principal }, raw: { path: {}, query, body: undefined }, requestId, clientAddress: ctx.clientAddress, userAgent: ctx.userAgent });
    return routeAnswer(outcome);
  });
}
