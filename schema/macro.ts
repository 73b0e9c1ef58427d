// Macro analytics: factor sensitivity to macro changes, and the high-signal macro pack.
import { macroSensitivity } from '../resolvers/analytics/macro.ts';
import { highSignalPack } from '../resolvers/analytics/macroPack.ts';
import { ApiError } from '../core/errors.ts';
import { builder } from './builder.ts';

builder.queryFields((t) => ({
  macroSensitivity: t.field({
    type: 'JSON',
    description: 'Monthly Fama-French factor returns regressed on monthly macro changes (as GET /v1/factors/macro-sensitivity documents it).',
    args: { model: t.arg.string({ defaultValue: 'ff5', description: 'ff3 or ff5' }), from: t.arg({ type: 'Date' }), to: t.arg({ type: 'Date' }) },
    resolve: (_root, args, ctx) => {
      const model = args.model ?? 'ff5';
      if (model !== 'ff3' && model !== 'ff5') throw new ApiError('invalid_query_parameter', `model must be ff3 or ff5, not ${model}.`, { details: { parameter: 'model', acceptedValues: ['ff3', 'ff5'] } });
      return macroSensitivity(ctx, { model, from: args.from, to: args.to });
    },
  }),
  macroHighSignalPack: t.field({
    type: 'JSON',
    description: 'Latest values, changes, regime, drift forecasts, estimated next observations and source posture of the macro series held (as GET /v1/macro/high-signal-pack documents it).',
    args: { country: t.arg.string({ defaultValue: 'US' }) },
    resolve: (_root, args, ctx) => highSignalPack(ctx, args.country ?? 'US'),
  }),
}));
