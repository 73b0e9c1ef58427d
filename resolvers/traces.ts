// A request's trace (core/requestSpans.ts): its record and the spans kept with it. Only the
// caller's organization is read: another organization's request and an unknown one are the same 404.
import { ApiError } from '../core/errors.ts';
import type { RecordedTrace } from '../core/requestSpans.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export async function requestTrace(ctx: Context, requestId: string) {
  const orgId = requireOrg(ctx);
  await ctx.requestLog.flush(); // this instance's latest records; other instances write theirs within a second
  const record = await ctx.prisma.requestRecord.findFirst({ where: { id: requestId, orgId } });
  const trace = record?.spans as RecordedTrace | null | undefined;
  if (!record || !trace) {
    throw new ApiError('trace_not_found', `No trace of request ${requestId} is recorded for this organization (records appear within a second of the answer; a request answered while tracing was off has none).`);
  }
  return { record, trace };
}
