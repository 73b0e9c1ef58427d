// The one way a request reaches a route, whatever door it came through (REST, MCP tools and
// resources; GraphQL runs the same authorize and charge steps on its own price). The steps, in order:
//
//   authenticate → authorize → validate → [door's admission] → price, meter, bill → execute → reshape → record
//
// A door hands over the route, its raw params and the caller's credentials (or the principal it
// already authenticated), and gets the answer back or an ApiError. What differs between doors is
// only how they speak: the hooks let a door answer a replay (REST's Idempotency-Key), refuse on its
// own terms before anything is charged (MCP's circuit breaker), bound or wrap execution (MCP's time
// budget) and shape the answer for its protocol. No hook can skip a step: a route runs only after
// it was authorized, validated and charged here. Record: the hooks tell the door who called, the
// meter class and the charge, which its request record (catalogue/requestContext.ts) keeps.
import { assertAccess, assertScope, type Access } from '../resolvers/access.ts';
import { authenticate, type Credentials } from '../resolvers/authenticate.ts';
import type { Context, Services } from '../resolvers/context.ts';
import { chargeQuota, type MeteredCharge } from '../resolvers/metering.ts';
import type { ApiKeyScope, Principal } from '../resolvers/principal.ts';
import { assertCapabilities, type Capability } from '../resolvers/roles.ts';
import { parseParams } from './params.ts';
import type { Route } from './route.ts';

export interface RawParams {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export type Params = ReturnType<typeof parseParams>;

/** Who calls: credentials for the pipeline to check, or the principal a door checked at connection time (MCP, graphql-ws). */
export type Caller = { credentials: Credentials } | { principal: Principal | null };

export interface PipelineRequest {
  route: Route;
  caller: Caller;
  /** read when the params are validated, after authorization: reading them may itself be refused (a body REST cannot decode) */
  raw: RawParams | (() => RawParams);
  requestId: string;
  clientAddress?: string;
  userAgent?: string;
}

export interface DoorHooks<T> {
  /** the caller is known (null on a public route): for the request's record */
  authenticated?(principal: Principal | null): void;
  /**
   * After validation, before anything is charged: the door's own admission. Answers true when
   * the door has answered by itself (an idempotent replay), so that nothing is charged or run.
   */
  admit?(principal: Principal | null, params: Params): Promise<boolean>;
  /** the route's meter class, told before it is charged whatever the outcome (a 429 still names it) */
  metering?(meterClass: string): void;
  /** what the request was charged, once admitted by quota and billing */
  charged?(charge: MeteredCharge): void;
  /** Runs the route (execute and reshape: its operation, then its reshaper) the door's way; absent: the answer as is. */
  execute?(run: () => Promise<unknown>, ctx: Context, params: Params): Promise<T>;
}

/** Authorization a door or a route needs: its access class, the API key scope, and what a person's role must allow. */
export interface Requirement {
  access: Access;
  scope?: ApiKeyScope;
  capabilities?: Iterable<Capability>;
}

/** Step 1: credentials to a principal (null without any); bad credentials are refused. */
export function authenticateCaller(services: Services, credentials: Credentials): Promise<Principal | null> {
  return authenticate(services, credentials);
}

/**
 * Step 2: the access class of the route (public, authenticated, org, dashboard), what an API
 * key's scope allows, and what a person's role allows (resolvers/roles.ts), here for every door.
 */
export function authorize(principal: Principal | null, requirement: Requirement): void {
  assertAccess(principal, requirement.access);
  assertScope(principal, requirement.scope ?? 'read');
  assertCapabilities(principal, requirement.capabilities ?? []);
}

/** Step 3: the raw params to the route's typed params, or the documented 400. */
export function validate(route: Route, raw: RawParams): Params {
  return parseParams(route, raw);
}

/**
 * Step 5: price, meter and bill. `units`: 1 for a route; a GraphQL operation's cost for the
 * graphql class. Refused with 429 past a quota window, 402 when nothing pays for it. A caller
 * without an organization (none reaches a metered route) is not charged.
 */
export async function charge(services: Services, principal: Principal | null, meterClass: string, units: number, requestId: string): Promise<MeteredCharge | null> {
  if (!principal?.orgId) return null;
  return chargeQuota(services, principal.orgId, meterClass, units, requestId);
}

export type PipelineOutcome<T> = { answered: 'by_door' } | { answered: 'by_route'; answer: T };

/** The route's answer, for a door whose admission never answers by itself (only REST replays). */
export function routeAnswer<T>(outcome: PipelineOutcome<T>): T {
  if (outcome.answered === 'by_route') return outcome.answer;
  throw new Error('the door answered this request itself: there is no route answer');
}

/** Every step, in order, for one request to one route. */
export async function runPipeline<T = unknown>(services: Services, request: PipelineRequest, door: DoorHooks<T> = {}): Promise<PipelineOutcome<T>> {
  const { route } = request;
  // A public route does not look at credentials at all: a stale key does not break a public read.
  const principal = 'principal' in request.caller ? request.caller.principal : route.access === 'public' ? null : await authenticateCaller(services, request.caller.credentials);
  if (route.access !== 'public') {
    authorize(principal, route);
    door.authenticated?.(principal);
  }
  const params = validate(route, typeof request.raw === 'function' ? request.raw() : request.raw);
  if (await door.admit?.(principal, params)) return { answered: 'by_door' };
  if (route.meter) {
    door.metering?.(route.meter);
    const admitted = await charge(services, principal, route.meter, 1, request.requestId);
    if (admitted) door.charged?.(admitted);
  }
  const ctx: Context = { ...services, principal, requestId: request.requestId, clientAddress: request.clientAddress, userAgent: request.userAgent };
  const run = () => route.run(params, ctx);
  const answer = door.execute ? await door.execute(run, ctx, params) : ((await run()) as T);
  return { answered: 'by_route', answer };
}

