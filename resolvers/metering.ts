// Charging a request before it runs, the same for every door (REST, GraphQL, MCP): the plan's
// quota windows (SPEC 8), then its price, paid from the starter grant, the plan or prepaid credit
// (resolvers/billing/admission.ts), or refused with a 402 (SPEC 7.1).
import { ApiError, type ErrorCode } from '../core/errors.ts';
import { rateLimitFields, type RateLimitFields } from '../core/limiter.ts';
import type { AdmittedCharge } from './billing/admission.ts';
import type { Services } from './context.ts';
import { cachedQuotas } from './requestCache.ts';

export interface MeteredCharge extends AdmittedCharge {
  /**
   * The RateLimit-Policy and RateLimit response fields of the class's windows, this request
   * counted: the limiter's decision reports them, so they cost no round trip of their own.
   */
  rateLimit: RateLimitFields;
}

/**
 * A GraphQL root field's `extensions` for an account read no REST route runs (usage charts, the
 * request log's latest, one key): charged like the platform routes, to the free `platform` class
 * (graphql/meters.ts).
 */
export const meteredAsPlatform = { meterClass: 'platform' } as const;

/**
 * The code a full window of a class is refused with: `rate_limit_exceeded`, except the classes
 * with a window of their own that SPEC 7.1 names (filing renders, AI queries). Every door reads it from here.
 */
const ownRefusalCodes: Partial<Record<string, ErrorCode>> = { render: 'render_rate_limited', ai_query: 'ai_query_quota_exceeded' };

export function quotaRefusalCode(meterClass: string): ErrorCode {
  return ownRefusalCodes[meterClass] ?? 'rate_limit_exceeded';
}

/** `units`: 1 for a request; a GraphQL operation's cost for the graphql class. */
export async function chargeQuota(services: Services, orgId: string, meterClass: string, units = 1, requestId = ''): Promise<MeteredCharge> {
  const found = await cachedQuotas(services, orgId);
  if (!found) throw new ApiError('organization_missing', 'The organization of this credential no longer exists.');
  const windows = found.quotas.filter((q) => q.meterClass === meterClass);
  if (windows.length === 0 || windows.some((q) => !q.allowed)) {
    throw new ApiError('billing_required', `The plan ${found.org.planKey} does not include ${meterClass} requests.`, {
      details: { meterClass, planKey: found.org.planKey },
      hint: 'Upgrade the plan or enable pay-as-you-go credits.',
    });
  }
  const beyondAnyWindow = windows.find((q) => units > q.limit);
  if (beyondAnyWindow) {
    throw new ApiError('query_cost_exceeded', `This costs ${units} ${meterClass} units, more than the plan's whole ${beyondAnyWindow.period} window (${beyondAnyWindow.limit}).`, {
      details: { cost: units, limit: beyondAnyWindow.limit, period: beyondAnyWindow.period },
    });
  }
  const decision = await services.limiter.consume(`${orgId}:${meterClass}`, windows, windows[0]!.failMode, units);
  if (decision.allowed === true) {
    const rateLimit = rateLimitFields(meterClass, decision.windows);
    try {
      return { ...(await services.admission.admit(found.org, meterClass, units, requestId)), rateLimit };
    } catch (error) {
      // a 402 after the windows counted the request still says where they stand
      if (error instanceof ApiError) throw new ApiError(error.code, error.message, { ...error.options, headers: { ...error.options.headers, ...rateLimit } });
      throw error;
    }
  }
  if (decision.allowed === 'unavailable') {
    throw new ApiError('rate_limiter_unavailable', 'Quota checks are temporarily unavailable for this class of request; retry shortly.', { retryAfter: 1 });
  }
  throw new ApiError(quotaRefusalCode(meterClass), `The ${decision.period} window of ${meterClass} requests (${decision.limit}) is full.`, {
    retryAfter: decision.retryAfterSeconds,
    headers: { ...rateLimitFields(meterClass, decision.windows) },
    details: { meterClass, period: decision.period, limit: decision.limit },
  });
}
