// The Facts operation's data built straight from the series read, for the REST and MCP doors:
// what executing the persisted document answers (test/factsData.test.ts holds the two equal),
// without executing the field, a result object and a scalar serialization for every fact of a
// page. An uncached facts read was spending more on that execution than on its one statement.
// /graphql still executes the field.
import { citationUrl } from '../derived/citations.ts';
import { factDurations, factDurationTable, type FactDuration } from '../resolvers/financials.ts';
import type { Context } from '../resolvers/context.ts';
import { calendarDay } from '../schema/builder.ts';
import { readFactSeries, seriesExplanation, seriesNextCursor, seriesResolution, seriesResolvedTags } from '../schema/financials.ts';
import type { FactsQuery, FactsQueryVariables } from './operations/generated.ts';

/** The FactDuration enum's names in the graph, to the durations they stand for (as the graph coerces them). */
const durationOfName = new Map<string, FactDuration>(factDurations.map((d) => [factDurationTable[d].graph, d]));

const dayOrNull = (value: Date | string | null) => (value === null ? null : calendarDay(value));

export async function factsData(variables: FactsQueryVariables, ctx: Context): Promise<FactsQuery> {
  const s = await readFactSeries(ctx, { ...variables, duration: variables.duration ? durationOfName.get(variables.duration) : null });
  // the fields the operation selects, in its order, absent ones null as the graph answers them
  return {
    facts: {
      cik: s.cik,
      requestedTag: s.resolution.requestedTag,
      resolvedTag: s.resolution.resolvedTag,
      resolvedTags: seriesResolvedTags(s),
      hasMore: s.hasMore,
      nextCursor: seriesNextCursor(s),
      taxonomy: s.resolution.taxonomy,
      resolution: seriesResolution(s),
      explanation: seriesExplanation(s),
      label: s.label ?? null,
      factsCovered: s.coverage.facts,
      facts: s.facts.map((f) => ({
        taxonomy: f.taxonomy,
        tag: f.tag,
        unit: f.unit,
        value: f.value,
        periodStart: dayOrNull(f.periodStart),
        periodEnd: calendarDay(f.periodEnd),
        fy: f.fy ?? null,
        fp: f.fp ?? null,
        form: f.form ?? null,
        frame: f.frame ?? null,
        accessionNumber: f.accessionNumber,
        filedAt: dayOrNull(f.filedAt),
        citationUrl: citationUrl(f.cik, f.accessionNumber, f.primaryDocument),
      })),
    },
  };
}
