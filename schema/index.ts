// The executable schema: every type module registers itself on the builder.
import './platform.ts';
import './edgar.ts';
import './forms.ts';
import './financials.ts';
import './webhooks.ts';
import './diagnostics.ts';
import './streams.ts';
import './delivery.ts';
import './billing.ts';
import './monitors.ts';
import './market.ts';
import './macro.ts';
import './intelligence.ts';
import './portfolio.ts';
import './optimize.ts';
import './artifacts.ts';
import './dilution.ts';
import './insiders.ts';
import './offerings.ts';
import './earnings.ts';
import './compensation.ts';
import './ownership.ts';
import './funds.ts';
import './agent.ts';
import './search.ts';
import { builder } from './builder.ts';

export const schema = builder.toSchema({ sortSchema: true });
