// The GraphQL client: queries and mutations over HTTP (POST /graphql), subscriptions over
// graphql-ws on the same path. The session is the httpOnly cookie the browser sends by itself;
// every request also carries `x-ids-csrf: 1`, which the service requires of a state change made
// with the cookie and which a cross-site form cannot send.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { Client, Provider, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';

export const csrfHeaders = { 'x-ids-csrf': '1' } as const;

function makeClient(): { client: Client; ws: WsClient } {
  const ws = createWsClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    // a page cannot add headers to the WebSocket handshake; the service reads this instead
    connectionParams: { ...csrfHeaders },
    lazy: true,
    retryAttempts: 3,
  });
  const client = new Client({
    url: '/graphql',
    // POST always: GET /graphql is GraphiQL's page, and a POST carries the CSRF header
    preferGetMethod: false,
    fetchOptions: () => ({ credentials: 'same-origin', headers: { ...csrfHeaders } }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, ws };
}

interface ClientControl {
  /** Drops every cached answer and the socket: after signing in or out, or switching organization. */
  reset(): void;
}

const ClientControlContext = createContext<ClientControl>({ reset: () => {} });

export function useClientControl(): ClientControl {
  return useContext(ClientControlContext);
}

export function GraphqlProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState(makeClient);
  useEffect(() => () => void current.ws.dispose(), [current]);
  const reset = useCallback(() => setCurrent(makeClient()), []);
  const control = useMemo(() => ({ reset }), [reset]);
  return (
    <ClientControlContext.Provider value={control}>
      <Provider value={current.client}>{children}</Provider>
    </ClientControlContext.Provider>
  );
}
