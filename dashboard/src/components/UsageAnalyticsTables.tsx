// Requests, units, cost and errors over whole UTC days (the graph's usageAnalytics, as GET
// /v1/analytics/usage answers it): per meter class and per day, each with the window's totals.
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatMoney, formatNumber } from '../format.ts';
import { Empty, ScrollingTable } from './States.tsx';

export const UsageAnalyticsFragment = graphql(`
  fragment UsageAnalyticsTable on UsageAnalytics {
    from
    to
    truncated
    rows {
      day
      meterClass
      requests
      errors4xx
      errors5xx
      units
      chargedMillicents
    }
    totals {
      requests
      errors4xx
      errors5xx
      units
      chargedMillicents
    }
  }
`);

type Counts = { requests: number; errors4xx: number; errors5xx: number; units: number; chargedMillicents: number };

/** Millicents (1/1,000 of a cent) as money. */
export const formatMillicents = (millicents: number) => formatMoney(millicents / 1000);

function Cells({ counts }: { counts: Counts }) {
  return (
    <>
      <td className="num">{formatNumber(counts.requests)}</td>
      <td className="num">{formatNumber(counts.units)}</td>
      <td className="num">{formatMillicents(counts.chargedMillicents)}</td>
      <td className="num">{formatNumber(counts.errors4xx)}</td>
      <td className="num">{formatNumber(counts.errors5xx)}</td>
    </>
  );
}

/** `by`: the grouping key the rows are read by (meter class or day). */
export function UsageAnalyticsTable(props: { usage: FragmentType<typeof UsageAnalyticsFragment>; by: 'meterClass' | 'day'; title: string }) {
  const usage = useFragment(UsageAnalyticsFragment, props.usage);
  const key = props.by === 'day' ? 'Day (UTC)' : 'Meter class';
  return (
    <figure className="chart usage-analytics">
      <figcaption>
        <h3>{props.title}</h3>
        <span className="muted">
          {usage.from} to {usage.to}, whole UTC days
        </span>
      </figcaption>
      {usage.totals.requests === 0 ? (
        <Empty>No requests from {usage.from} to {usage.to}.</Empty>
      ) : (
        <ScrollingTable label={props.title}>
          <table className={`usage-analytics-${props.by === 'day' ? 'days' : 'classes'}`}>
            <caption className="visually-hidden">
              {props.title}, {usage.from} to {usage.to}
            </caption>
            <thead>
              <tr>
                <th scope="col">{key}</th>
                <th scope="col" className="num">Requests</th>
                <th scope="col" className="num">Units</th>
                <th scope="col" className="num">Charged</th>
                <th scope="col" className="num">4xx errors</th>
                <th scope="col" className="num">5xx errors</th>
              </tr>
            </thead>
            <tbody>
              {usage.rows.map((row) => (
                <tr key={row[props.by] ?? ''}>
                  <th scope="row">{row[props.by]}</th>
                  <Cells counts={row} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <Cells counts={usage.totals} />
              </tr>
            </tfoot>
          </table>
        </ScrollingTable>
      )}
      {usage.truncated ? <p className="note">More groups than are shown; the totals count every request.</p> : null}
    </figure>
  );
}
