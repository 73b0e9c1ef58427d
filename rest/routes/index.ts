// The route table: every /v1 route and the discovery routes, in one list.
import type { Route } from '../route.ts';
import { discoveryRoutes } from './discovery.ts';
import { edgarRoutes } from './edgar.ts';
import { financialRoutes } from './financials.ts';
import { formAndEventRoutes } from './formsEvents.ts';
import { platformRoutes } from './platform.ts';
import { streamRoutes } from './streams.ts';
import { webhookRoutes } from './webhooks.ts';
import { diagnosticsRoutes } from './diagnostics.ts';
import { billingRoutes } from './billing.ts';
import { deliveryRoutes, unsubscribeRoutes } from './delivery.ts';
import { monitorRoutes } from './monitors.ts';
import { marketRoutes } from './market.ts';
import { macroRoutes } from './macro.ts';
import { portfolioRoutes } from './portfolio.ts';
import { artifactRoutes } from './artifacts.ts';

export const routes: Route[] = [...discoveryRoutes, ...platformRoutes, ...billingRoutes, ...edgarRoutes, ...financialRoutes, ...formAndEventRoutes, ...marketRoutes, ...macroRoutes, ...portfolioRoutes, ...artifactRoutes, ...monitorRoutes, ...webhookRoutes, ...diagnosticsRoutes, ...streamRoutes, ...deliveryRoutes, ...unsubscribeRoutes];
