// What a monitor's read shows now, before it is saved: the route run with the draft's params (its
// default view, first page in the route's own order), past its threshold. A saved monitor matches
// only what is ingested after it, so this is a sample of the kind of record it will send, not a
// match.
import type { Context } from '../context.ts';
import { pastThreshold } from './matching.ts';
import { checkQuery, parsedParams, watchedRoute, type MonitorQuery } from './spec.ts';

export interface Preview {
  items: Record<string, unknown>[];
  /** the read lists more than the preview shows */
  hasMore: boolean;
}

export async function previewQuery(ctx: Context, input: MonitorQuery, limit: number): Promise<Preview> {
  // the same checks createMonitor makes: a preview of a query it would refuse is refused alike
  const checked = await checkQuery(ctx, input);
  const route = watchedRoute(checked.route);
  const { items, hasMore } = await route.watch.latest(parsedParams(route, checked.params), ctx, limit);
  return { items: pastThreshold(items, checked.threshold), hasMore };
}
