// The route table: every /v1 route and the discovery routes, in one list.
import { provideWatchableReads, type WatchableRead } from '../../resolvers/monitors/watchable.ts';
import type { Route } from '../route.ts';
import { discoveryRoutes } from './discovery.ts';
import { edgarRoutes } from './edgar.ts';
import { financialRoutes } from './financials.ts';
import { formAndEventRoutes } from './formsEvents.ts';
import { platformRoutes } from './platform.ts';
import { streamRoutes } from './streams.ts';
import { webhookRoutes } from './webhooks.ts';
import { diagnosticsRoutes } from './diagnostics.ts';
import { traceRoutes } from './traces.ts';
import { billingRoutes } from './billing.ts';
import { deliveryRoutes, unsubscribeRoutes } from './delivery.ts';
import { monitorRoutes } from './monitors.ts';
import { marketRoutes } from './market.ts';
import { macroRoutes } from './macro.ts';
import { stockRoutes } from './stocks.ts';
import { catalogRoutes } from './catalogs.ts';
import { intelligenceRoutes } from './intelligence.ts';
import { portfolioRoutes } from './portfolio.ts';
import { optimizeRoutes } from './optimize.ts';
import { artifactRoutes } from './artifacts.ts';
import { dilutionRoutes } from './dilution.ts';
import { insiderRoutes } from './insiders.ts';
import { offeringRoutes } from './offerings.ts';
import { earningsRoutes } from './earnings.ts';
import { compensationRoutes } from './compensation.ts';
import { ownershipRoutes } from './ownership.ts';
import { fundRoutes } from './funds.ts';
import { fundLetterRoutes } from './fundLetters.ts';
import { adviserRoutes } from './advisers.ts';
import { agentRoutes } from './agent.ts';
import { agentQueryRoutes } from './agentQuery.ts';
import { provideAgentSteps } from '../agentSteps.ts';
import { searchRoutes } from './search.ts';
import { memberRoutes } from './members.ts';
import { operatorRoutes } from './operator.ts';
import { authRoutes } from './auth.ts';
import { authProviderRoutes } from './authProviders.ts';
import { requestRoutes } from './requests.ts';
import { usageAnalyticsRoutes } from './usageAnalytics.ts';
import { alertRoutes } from './alerts.ts';
import { ingestRoutes } from './ingest.ts';
import { renderRoutes } from './render.ts';
import { newsRoutes } from './news.ts';
import { signalRoutes } from './signals.ts';
import { situationRoutes } from './situations.ts';
import { strategyRoutes } from './strategies.ts';

export const routes: Route[] = [...discoveryRoutes, ...authRoutes, ...authProviderRoutes, ...platformRoutes, ...billingRoutes, ...edgarRoutes, ...renderRoutes, ...newsRoutes, ...signalRoutes, ...situationRoutes, ...financialRoutes, ...formAndEventRoutes, ...dilutionRoutes, ...insiderRoutes, ...offeringRoutes, ...earningsRoutes, ...compensationRoutes, ...ownershipRoutes, ...fundRoutes, ...fundLetterRoutes, ...adviserRoutes, ...agentRoutes, ...agentQueryRoutes, ...searchRoutes, ...marketRoutes, ...macroRoutes, ...stockRoutes, ...catalogRoutes, ...intelligenceRoutes, ...portfolioRoutes, ...optimizeRoutes, ...strategyRoutes, ...artifactRoutes, ...monitorRoutes, ...webhookRoutes, ...diagnosticsRoutes, ...traceRoutes, ...streamRoutes, ...deliveryRoutes, ...unsubscribeRoutes, ...memberRoutes, ...operatorRoutes, ...requestRoutes, ...usageAnalyticsRoutes, ...alertRoutes, ...ingestRoutes];

// Monitors save list reads of this table; they learn which ones here, once it is built.
provideWatchableReads(routes.filter((r): r is Route & WatchableRead => !!r.watch && r.method === 'GET'));

// An AI query runs the reads it planned through this table, as its caller.
provideAgentSteps(routes);
