// Credit and saved cards change when the payment processor's signed notice reaches the service,
// not when the browser finishes its part. There is no subscription for that notice, so after a
// top-up or a new card the page asks briefly (every 1.5 s, for up to 3 minutes) until the change
// is there, then shows it: nobody has to reload.
import { useEffect, useRef } from 'react';
import { useClient } from 'urql';
import { graphql } from '../../gql';

const BillingWatchQuery = graphql(`
  query BillingWatch {
    credits {
      balanceMillicents
    }
    paymentMethods {
      id
    }
  }
`);

export interface WatchState {
  balanceMillicents: number;
  paymentMethodIds: string[];
}

export const watchInterval = 1500;
const watchFor = 3 * 60_000;

/** While `until` is set, polls until it answers true for what the service now holds, then calls `arrived`. */
export function useBillingWatch(until: ((now: WatchState) => boolean) | null, arrived: (now: WatchState) => void, timedOut: () => void) {
  const client = useClient();
  const callbacks = useRef({ arrived, timedOut });
  callbacks.current = { arrived, timedOut };

  useEffect(() => {
    if (!until) return;
    let stopped = false;
    const deadline = Date.now() + watchFor;
    const tick = async () => {
      if (stopped) return;
      const result = await client.query(BillingWatchQuery, {}, { requestPolicy: 'network-only' }).toPromise();
      if (stopped) return;
      const data = result.data;
      if (data) {
        const now = { balanceMillicents: data.credits.balanceMillicents, paymentMethodIds: data.paymentMethods.map((m) => m.id) };
        if (until(now)) {
          callbacks.current.arrived(now);
          return;
        }
      }
      if (Date.now() > deadline) {
        callbacks.current.timedOut();
        return;
      }
      timer = setTimeout(() => void tick(), watchInterval);
    };
    let timer = setTimeout(() => void tick(), watchInterval);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [until, client]);
}
