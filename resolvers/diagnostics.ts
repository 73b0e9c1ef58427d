// Diagnostics (SPEC 4.4): one request with everything it caused, and a summary of webhook
// deliveries over a time window. Both read only the caller's organization.
import { Prisma } from '../prisma/generated/client/client.ts';
import { ApiError } from '../core/errors.ts';
import { requireOrg } from './access.ts';
import type { Context } from './context.ts';

export async function requestDiagnostics(ctx: Context, requestId: string) {
  const orgId = requireOrg(ctx);
  await ctx.requestLog.flush(); // this instance's latest records; other instances write theirs within a second
  const record = await ctx.prisma.requestRecord.findFirst({ where: { id: requestId, orgId } });
  if (!record) throw new ApiError('request_not_found', `No request ${requestId} of this organization is recorded (records appear within a second of the answer).`);
  await ctx.admission.settle(orgId); // what this instance admitted is in the ledger; other instances settle within IDS_BILLING_SETTLE_MS
  const charge = await ctx.prisma.requestCharge.findFirst({ where: { requestId, orgId } });
  const events = await ctx.prisma.event.findMany({ where: { requestId, orgId }, orderBy: { seq: 'asc' } });
  const deliveries = events.length
    ? await ctx.prisma.webhookDelivery.findMany({ where: { orgId, eventId: { in: events.map((e) => e.id) } }, orderBy: [{ createdAt: 'asc' }, { attempt: 'asc' }] })
    : [];
  return { record, charge, events, deliveries };
}

interface SummaryRow {
  status: string;
  endpointId: string;
  count: bigint;
}

export async function deliverySummary(ctx: Context, from: Date, to: Date) {
  const orgId = requireOrg(ctx);
  if (from >= to) throw new ApiError('invalid_request_parameter', '`from` must be before `to`.', { details: { parameter: 'from' } });
  const window = Prisma.sql`"orgId" = ${orgId} AND "createdAt" >= ${from} AND "createdAt" < ${to}`;
  const [rows, [latency], reasons] = await Promise.all([
    ctx.prisma.$queryRaw<SummaryRow[]>`SELECT "status", "endpointId", count(*) AS "count" FROM "WebhookDelivery" WHERE ${window} GROUP BY "status", "endpointId"`,
    ctx.prisma.$queryRaw<{ p50: number | null; p95: number | null; attempted: bigint }[]>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "durationMs") AS "p50", percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS "p95", count("durationMs") AS "attempted"
      FROM "WebhookDelivery" WHERE ${window} AND "durationMs" IS NOT NULL`,
    ctx.prisma.$queryRaw<{ error: string; count: bigint }[]>`
      SELECT "error", count(*) AS "count" FROM "WebhookDelivery" WHERE ${window} AND "error" IS NOT NULL AND "status" IN ('failed', 'retrying')
      GROUP BY "error" ORDER BY count(*) DESC, "error" LIMIT 5`,
  ]);
  const byStatus: Record<string, number> = { pending: 0, succeeded: 0, failed: 0, retrying: 0 };
  const endpoints = new Map<string, Record<string, number>>();
  for (const row of rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + Number(row.count);
    const counts = endpoints.get(row.endpointId) ?? { pending: 0, succeeded: 0, failed: 0, retrying: 0 };
    counts[row.status] = Number(row.count);
    endpoints.set(row.endpointId, counts);
  }
  return {
    from,
    to,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    byStatus,
    byEndpoint: [...endpoints].map(([webhookEndpointId, counts]) => ({ webhookEndpointId, ...counts })).sort((a, b) => a.webhookEndpointId.localeCompare(b.webhookEndpointId)),
    latencyMs: { p50: latency?.p50 ?? null, p95: latency?.p95 ?? null, attempted: Number(latency?.attempted ?? 0) },
    topFailureReasons: reasons.map((r) => ({ reason: r.error, count: Number(r.count) })),
  };
}
