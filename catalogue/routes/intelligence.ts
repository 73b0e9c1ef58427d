// Intelligence (SPEC 4.6): a dense country briefing built by stated, deterministic rules from the
// high-signal macro pack, every statement citing its FRED observations; kept as an artifact.
import { z } from 'zod';
import { reportMethod, reportRules, reportVersion } from '../../resolvers/analytics/countryReport.ts';
import { CountryReportDocument } from '../operations/generated.ts';
import { operationRoute } from '../route.ts';
import { asStored, stored } from './portfolio.ts';

const citation = z.object({
  seriesId: z.string(),
  frequency: z.string(),
  date: z.string().describe('The observation date as the FRED file has it'),
  value: z.number().describe('The observation value as the FRED file has it'),
  role: z.string().describe('What the observation is to the statement: latest, previous, year_earlier, latest_month, …'),
  sourceKey: z.string(),
  fileName: z.string().nullable(),
  vintage: z.string().nullable().describe('As the pack states it (a FRED download states none: null)'),
});
const statement = z.object({
  rule: z.string().describe('The id of the rule (in `rules`) that made it'),
  text: z.string(),
  figures: z.array(z.object({ name: z.string(), value: z.number().describe('Unrounded; the text rounds it'), units: z.string() })),
  citations: z.array(citation).min(1).describe('The observations the statement rests on'),
});

export const intelligenceRoutes = [
  operationRoute({
    name: 'intelligence_country_report',
    method: 'POST',
    path: '/v1/intelligence/country-report',
    summary: 'Dense country briefing: key drivers, watch items and implications, each statement citing its observations',
    description:
      `Built from the high-signal macro pack of \`country\` (GET /v1/macro/high-signal-pack, computed for this request) by fixed rules, \`method\` \`${reportMethod}\` version \`${reportVersion}\`, listed in the answer's \`rules\`: ` +
      reportRules.map((r) => `${r.id} (${r.section}): ${r.rule}`).join(' ') +
      ' Every statement has `rule`, `text` (numbers rounded), `figures` (unrounded) and at least one citation: the series, observation date and value exactly as the FRED file has them, with its file and vintage as the pack states them. ' +
      'Deterministic: the pack\'s `asOf` is its newest observation, never today\'s clock, so the same request on the same data gives the same result and `contentHash`. ' +
      'Every answer is kept as an artifact (`artifactId`, kind `country_report`; GET /v1/artifacts/{artifact_id}/export?format=markdown renders it as a briefing). A country the pack does not cover is 404 `country_not_covered` listing the covered ones in `details.acceptedValues`; a missing or invalid `country` is 400 `validation_error` naming it.',
    tag: 'Intelligence',
    access: 'org',
    meter: 'analytics',
    mcp: true,
    errors: ['country_not_covered', 'validation_error'],
    params: { body: z.strictObject({ country: z.string().min(2).max(3).describe('ISO country code; US is covered') }) },
    response: z.object({
      ...stored('country_report'),
      country: z.string(),
      asOf: z.string().nullable(),
      asOfRule: z.string(),
      method: z.literal(reportMethod),
      version: z.string(),
      basis: z.string(),
      regime: z.object({ name: z.enum(['reflation', 'goldilocks', 'stagflation', 'deflation']).nullable(), rule: z.string() }),
      rules: z.array(z.object({ id: z.string(), section: z.enum(['summary', 'keyDrivers', 'watchItems', 'implications']), rule: z.string() })),
      summary: z.array(statement),
      keyDrivers: z.array(statement),
      watchItems: z.array(statement),
      implications: z.array(statement),
      sources: z.array(
        z.object({
          seriesId: z.string(),
          frequency: z.string(),
          sourceKey: z.string(),
          fileName: z.string().nullable(),
          vintage: z.string().nullable(),
          vintageNote: z.string().nullable(),
          lastObservationDate: z.string(),
          stalenessDays: z.number().int(),
          stale: z.boolean().describe('Rule W1'),
        }),
      ),
      requestId: z.string(),
    }),
    operation: CountryReportDocument,
    variables: ({ body }) => ({ country: body.country }),
  }).reshape(({ countryReport }, meta) => asStored('country_report', countryReport, meta)),
];
