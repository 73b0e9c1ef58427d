// The Statements operation's data built straight from the stored periods, for the REST and MCP
// doors: what executing the persisted document answers (test/statementsData.test.ts holds the two
// equal), without a resolver call, a result object and a citation load for every line and source
// of a bundle of hundreds. A read no kept answer serves (the first after an ingest) was mostly that
// execution. /graphql still executes the field.
import { citationUrl } from '../derived/citations.ts';
import type { FactSource, StatementLine } from '../derived/statements.ts';
import type { Context } from '../resolvers/context.ts';
import { readStatements } from '../schema/financials.ts';
import type { StatementsQuery, StatementsQueryVariables } from './operations/generated.ts';

type Line = StatementsQuery['statements']['periods'][number]['income'][number];
type Source = NonNullable<Line['fact']>;

export async function statementsData(variables: StatementsQueryVariables, ctx: Context): Promise<StatementsQuery> {
  const { cik, documents, coverage, emptyReason, ...bundle } = await readStatements(ctx, variables);
  // the fields of LineFields and SourceFields, in their order, absent ones null as the graph answers them
  const source = (s: FactSource | null | undefined): Source | null =>
    s
      ? {
          taxonomy: s.taxonomy,
          tag: s.tag,
          value: s.value,
          accessionNumber: s.accessionNumber,
          form: s.form ?? null,
          filedAt: s.filedAt ?? null,
          periodStart: s.periodStart ?? null,
          periodEnd: s.periodEnd,
          citationUrl: citationUrl(cik, s.accessionNumber, documents.get(s.accessionNumber)),
        }
      : null;
  const lines = (record: Record<string, StatementLine>): Line[] =>
    Object.values(record).map((l) => ({
      key: l.key,
      label: l.label,
      value: l.value ?? null,
      unit: l.unit ?? null,
      derived: l.derived,
      derivation: l.derivation ?? null,
      missing: l.missing ?? null,
      note: l.note ?? null,
      fact: source(l.fact),
      restatedFrom: source(l.restatedFrom),
      restatedTo: source(l.restatedTo),
    }));
  return {
    statements: {
      cik,
      period: bundle.period,
      asReported: bundle.asReported,
      taxonomy: bundle.taxonomy ?? null,
      currency: bundle.currency ?? null,
      factsCovered: coverage.facts,
      emptyReason: emptyReason ?? null,
      periods: bundle.periods.map((p) => ({
        fiscalYear: p.fiscalYear,
        fiscalPeriod: p.fiscalPeriod,
        periodStart: p.periodStart,
        periodEnd: p.periodEnd,
        income: lines(p.income),
        balanceSheet: lines(p.balanceSheet),
        cashFlow: lines(p.cashFlow),
      })),
    },
  };
}
