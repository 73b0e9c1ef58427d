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
import './portfolio.ts';
import './artifacts.ts';
import { builder } from './builder.ts';

export const schema = builder.toSchema({ sortSchema: true });
