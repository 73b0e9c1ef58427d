// Intelligence (SPEC 4.6): the country report, built by stated rules from the high-signal macro
// pack and kept as an artifact (resolvers/analytics/artifacts.ts, kind `country_report`).
import { countryReport, reportMethod, reportVersion } from '../resolvers/analytics/countryReport.ts';
import { readScope, requireOrg } from '../resolvers/access.ts';
import { builder } from './builder.ts';
import { keep, storedResult } from './portfolio.ts';

const CountryReport = storedResult('CountryReport', 'A dense country briefing (key drivers, watch items, implications) built by stated rules from the macro pack', '/v1/intelligence/country-report');

builder.mutationFields((t) => ({
  countryReport: t.field({
    extensions: readScope,
    type: CountryReport,
    args: { country: t.arg.string({ required: true, description: 'ISO country code; the countries the macro pack covers' }) },
    resolve: async (_root, args, ctx) => {
      requireOrg(ctx);
      const computed = await countryReport(ctx, args.country);
      const { country, asOf } = computed.result;
      return keep(ctx, { kind: 'country_report', route: '/v1/intelligence/country-report', title: `Country report: ${country}, as of ${asOf ?? 'no data'}`, request: { country: args.country }, window: null, model: `${reportMethod}/${reportVersion}` }, computed);
    },
  }),
}));
