// Stream subscriptions (SPEC 3, 4.8, 6.3): a saved reading of the canonical event log, polled by
// cursor (replay is safe) or followed live over graphql-ws, with tickets for browsers.
import { z } from 'zod';
import {
  CreateStreamSubscriptionDocument,
  CreateStreamTicketDocument,
  DeleteStreamSubscriptionDocument,
  StreamSubscriptionEventsDocument,
  StreamSubscriptionsDocument,
  UpdateStreamSubscriptionDocument,
  type StreamSubscriptionFieldsFragment,
} from '../operations/generated.ts';
import { eventRetentionDays } from '../../subscriptions/eventLog.ts';
import { scanBudget } from '../../subscriptions/streams.ts';
import { listEnvelope, operationRoute, pageParams, viewParam } from '../route.ts';

const what =
  'A stream subscription reads the organization\'s own events of its `eventTypes` (`["*"]`: all of them), and public data events (`filing.added`) only when their type is named; ' +
  '`filters` (tickers, CIKs, forms) narrow those public data events: an event passes when it matches any value of each filter given (`tickers: ["AAPL","MSFT"], forms: ["10-K"]` is an AAPL or MSFT 10-K); the organization\'s own events are not filtered. ' +
  '`transport` (`poll` or `graphql_ws`) records how it is meant to be read; both ways work for either: GET …/events, or the graphql-ws subscription `streamEvents(subscriptionId, cursor, ticket)` on /graphql. ' +
  'Creating, changing and deleting a subscription records `stream_subscription.created`, `.updated` and `.deleted` events (data `{streamSubscriptionId, status, eventTypes}`).';

const status = z.enum(['enabled', 'disabled', 'deleted']);
const transport = z.enum(['poll', 'graphql_ws']);
const filtersOut = z.object({
  tickers: z.array(z.string()).describe('Upper case; class shares as EDGAR writes them (BRK-B)'),
  ciks: z.array(z.string()).describe('10 digits'),
  forms: z.array(z.string()).describe('Exact form types, upper case (10-K does not match 10-K/A)'),
});

const subscription = z.object({
  object: z.literal('stream_subscription'),
  id: z.string().describe('`ss_…`'),
  description: z.string(),
  eventTypes: z.array(z.string()),
  filters: filtersOut,
  transport,
  status,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** An event as every route serves it (subscriptions/eventLog.ts servedEvent). */
export const event = z.object({
  object: z.literal('event'),
  id: z.string().describe('`evt_…`; the same event has the same id in every read, replay and webhook delivery'),
  type: z.string(),
  createdAt: z.iso.datetime(),
  orgId: z.string().nullable().describe('null for public data events'),
  requestId: z.string().nullable().describe('The request that caused it, when one did'),
  data: z.unknown().describe('Shaped per type: GET /v1/event_types has the JSON Schema of each'),
});

const toSubscription = ({ tickers, ciks, forms, ...s }: StreamSubscriptionFieldsFragment) => ({
  object: 'stream_subscription' as const,
  ...s,
  filters: { tickers, ciks, forms },
  transport: s.transport as z.infer<typeof transport>,
  status: s.status as z.infer<typeof status>,
});

const streamId = z.string().regex(/^ss_[0-9A-Za-z]{24}$/, 'expected a stream subscription id, ss_ and 24 letters or digits');
const streamPath = z.strictObject({ stream_id: streamId });
const eventTypes = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(50)
  .describe('Event types from GET /v1/event_types, or ["*"] for every event of the organization. Public data events (filing.added) are read only when named.');
const filtersIn = z
  .strictObject({
    tickers: z.array(z.string().min(1).max(12)).max(100).describe('Tickers (AAPL, BRK.B); any of them'),
    ciks: z.array(z.string().min(1).max(13)).max(100).describe('CIKs (320193, 0000320193 or CIK0000320193); any of them'),
    forms: z.array(z.string().min(1).max(20)).max(50).describe('Form types (10-K, 8-K, 4); any of them, exactly'),
  })
  .partial()
  .describe('Narrow the public data events named in eventTypes; an empty or omitted list does not filter. They need a public type (filing.added) in eventTypes.');
const fields = { description: z.string().max(500), eventTypes, filters: filtersIn, transport };
const variablesOf = (body: { description?: string; eventTypes?: string[]; filters?: { tickers?: string[]; ciks?: string[]; forms?: string[] }; transport?: string; status?: string }) => ({
  input: {
    description: body.description ?? null,
    eventTypes: body.eventTypes ?? null,
    tickers: body.filters?.tickers ?? null,
    ciks: body.filters?.ciks ?? null,
    forms: body.filters?.forms ?? null,
    transport: body.transport ?? null,
    status: body.status ?? null,
  },
});
const one = subscription.extend({ requestId: z.string() });
const common = { tag: 'Streams', access: 'org' as const, meter: 'platform' };
const notFound = ['stream_subscription_not_found'];
const gone = 'A deleted subscription, or another organization\'s, is `404 stream_subscription_not_found`.';

const polling =
  'Events come oldest first, in the order of the log (commit order), each as `{object: "event", id, type, createdAt, orgId, requestId, data}`; an event can be read once every transaction older than its own has ended (normally milliseconds after it is committed), so a reader never skips one. ' +
  'Without `cursor` the read starts at the subscription\'s creation (its own `stream_subscription.created` is then its first event, when its types include it), or at the start of the log with `from=earliest`. ' +
  '`nextCursor` is always set: pass it as `cursor` to continue, now when `hasMore` is true, or later to poll for new events (an empty page at the end of the log still moves the cursor\'s clock forward). ' +
  `Replay is safe: reading again from any cursor returns the same events in the same order, as long as the subscription's types and filters are unchanged and the events are kept (${eventRetentionDays} days). ` +
  `One read examines at most ${scanBudget} events of the log; when its filters leave fewer than \`limit\`, the page is shorter and \`hasMore\` true. ` +
  `\`400 invalid_query_parameter\` (details.parameter \`cursor\`): a cursor another subscription issued, one that is malformed, or one older than the ${eventRetentionDays}-day retention (events after it may be gone: start again without a cursor). ` +
  'A disabled subscription answers `409 stream_subscription_disabled`; after enabling it, its cursors read on, events of the time it was disabled included. ' +
  gone;

export const streamRoutes = [
  operationRoute({
    name: 'stream_subscriptions_list',
    method: 'GET',
    path: '/v1/stream_subscriptions',
    summary: 'List the organization\'s stream subscriptions, newest first',
    description: `Deleted subscriptions are not listed. ${what}`,
    ...common,
    mcp: true,
    params: { query: z.strictObject({ ...pageParams, view: viewParam }) },
    response: listEnvelope(subscription),
    operation: StreamSubscriptionsDocument,
    variables: ({ query }) => ({ first: query.limit, after: query.cursor ?? null }),
  }).reshape(({ streamSubscriptions: page }, meta) => ({
    object: 'list',
    data: page.nodes.map(toSubscription),
    hasMore: page.pageInfo.hasNextPage,
    nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
    ...meta,
  })),
  operationRoute({
    name: 'stream_subscriptions_create',
    method: 'POST',
    path: '/v1/stream_subscriptions',
    summary: 'Create a stream subscription for polling and replay',
    description: `${what} It starts enabled, at the current end of the log: a read without a cursor returns the events committed after its creation.`,
    ...common,
    params: { body: z.strictObject({ description: fields.description.optional(), eventTypes: eventTypes.default(['*']), filters: filtersIn.optional(), transport: transport.default('poll') }) },
    response: one,
    operation: CreateStreamSubscriptionDocument,
    variables: ({ body }) => variablesOf(body),
  }).reshape(({ createStreamSubscription: s }, meta) => ({ ...toSubscription(s), ...meta })),
  operationRoute({
    name: 'stream_subscriptions_update',
    method: 'PATCH',
    path: '/v1/stream_subscriptions/{stream_id}',
    summary: 'Update description, event types, filters, transport or status',
    description: `Fields left out keep their value; a filter list given replaces that list (\`[]\` removes it). \`status\` is \`enabled\` or \`disabled\` (DELETE deletes). A change records \`stream_subscription.updated\`; a request that changes nothing records nothing. ${gone}`,
    ...common,
    params: { path: streamPath, body: z.strictObject({ ...fields, status: z.enum(['enabled', 'disabled']) }).partial() },
    response: one,
    errors: notFound,
    operation: UpdateStreamSubscriptionDocument,
    variables: ({ path, body }) => ({ id: path.stream_id, ...variablesOf(body) }),
  }).reshape(({ updateStreamSubscription: s }, meta) => ({ ...toSubscription(s), ...meta })),
  operationRoute({
    name: 'stream_subscriptions_delete',
    method: 'DELETE',
    path: '/v1/stream_subscriptions/{stream_id}',
    summary: 'Delete a stream subscription, keeping its records',
    description: 'Answers the subscription with `status: "deleted"` and records `stream_subscription.deleted`. The record and the events it read are kept; from then on the subscription is not listed, its live streams end, its unused tickets stop working, and every route (DELETE again included) answers `404 stream_subscription_not_found`.',
    ...common,
    params: { path: streamPath },
    response: subscription.extend({ deleted: z.literal(true), requestId: z.string() }),
    errors: notFound,
    operation: DeleteStreamSubscriptionDocument,
    variables: ({ path }) => ({ id: path.stream_id }),
  }).reshape(({ deleteStreamSubscription: s }, meta) => ({ ...toSubscription(s), deleted: true as const, ...meta })),
  ...(['disable', 'enable'] as const).map((action) =>
    operationRoute({
      name: `stream_subscriptions_${action}`,
      method: 'POST',
      path: `/v1/stream_subscriptions/{stream_id}/${action}`,
      summary: action === 'disable' ? 'Disable a stream subscription, keeping its records' : 'Enable a stream subscription',
      description:
        (action === 'disable'
          ? 'A disabled subscription delivers nothing: its live streams end, reading its events answers `409 stream_subscription_disabled`. Its cursors stay valid (within retention). '
          : 'Reading resumes where each cursor left off, events of the time it was disabled included. ') +
        `Idempotent; a change records \`stream_subscription.updated\`. ${gone}`,
      ...common,
      params: { path: streamPath },
      response: one,
      errors: notFound,
      operation: UpdateStreamSubscriptionDocument,
      variables: ({ path }) => ({ id: path.stream_id, ...variablesOf({ status: action === 'disable' ? 'disabled' : 'enabled' }) }),
    }).reshape(({ updateStreamSubscription: s }, meta) => ({ ...toSubscription(s), ...meta })),
  ),
  operationRoute({
    name: 'stream_subscription_events_list',
    method: 'GET',
    path: '/v1/stream_subscriptions/{stream_id}/events',
    summary: 'Poll a stream subscription\'s canonical events with cursor semantics',
    description: polling,
    ...common,
    mcp: true,
    params: {
      path: streamPath,
      query: z.strictObject({
        ...pageParams,
        cursor: pageParams.cursor.describe('Opaque cursor from a previous `nextCursor` of this subscription; continue after it.'),
        from: z.enum(['created', 'earliest']).optional().describe('Without a cursor: `created` (default) starts at the subscription\'s creation, `earliest` at the oldest event kept. Not allowed with a cursor.'),
        view: viewParam,
      }),
    },
    response: z.object({
      object: z.literal('list'),
      data: z.array(event),
      hasMore: z.boolean().describe('More events can be read now'),
      nextCursor: z.string().describe('Always set: pass as `cursor` to continue now (hasMore) or to poll later'),
      requestId: z.string(),
    }),
    errors: [...notFound, 'stream_subscription_disabled'],
    operation: StreamSubscriptionEventsDocument,
    variables: ({ path, query }) => ({ id: path.stream_id, cursor: query.cursor ?? null, limit: query.limit, from: query.from ?? null }),
  }).reshape(({ streamSubscriptionEvents: page }, meta) => ({
    object: 'list',
    data: page.events.map((e) => ({ object: 'event' as const, ...e })),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
    ...meta,
  })),
  operationRoute({
    name: 'stream_subscription_tickets_create',
    method: 'POST',
    path: '/v1/stream_subscriptions/{stream_id}/tickets',
    summary: 'Create a single-use ticket for a browser to open the subscription\'s live stream',
    description:
      'Your server calls this with its API key and hands the ticket to the browser, which never holds a key: it opens graphql-ws on /graphql without credentials and subscribes to ' +
      '`streamEvents(subscriptionId: "ss_…", ticket: "sst_…", cursor: …)`. The ticket is shown only in this answer, works for this subscription only, within 60 seconds, once; ' +
      'a ticket that is unknown, expired, already used or for another subscription makes the subscription fail with `authentication_failed`. ' +
      `A disabled subscription answers \`409 stream_subscription_disabled\`. ${gone}`,
    ...common,
    params: { path: streamPath },
    response: z.object({
      object: z.literal('stream_ticket'),
      ticket: z.string().describe('`sst_…`: shown only in this answer'),
      streamSubscriptionId: z.string(),
      expiresAt: z.iso.datetime().describe('60 seconds from now'),
      requestId: z.string(),
    }),
    errors: [...notFound, 'stream_subscription_disabled'],
    operation: CreateStreamTicketDocument,
    variables: ({ path }) => ({ id: path.stream_id }),
  }).reshape(({ createStreamTicket: ticket }, meta) => ({ object: 'stream_ticket', ...ticket, ...meta })),
];
