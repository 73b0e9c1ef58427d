// The company's revenue by product line, geography and operating segment, from its dimensional
// XBRL facts: per axis, the latest period's members with their share of consolidated revenue (a
// bar), growth on the prior period and operating margin where filed. Each revenue links to the
// filing it comes from. An axis whose members do not add up to the consolidated total is marked
// low confidence, with the reason.
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, ScrollingTable } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { humanize } from '../../format.ts';
import { filingPath, formatDecimal } from './research.ts';

const CompanySegmentsQuery = graphql(`
  query CompanySegments($cik: String!) {
    segments(cik: $cik) {
      cik
      axes {
        axis
        kind
        confidence
        periods {
          periodStart
          periodEnd
          unit
          total
          confidence
          reason
          members {
            member
            revenue
            shareOfTotal
            yoyGrowth
            operatingMargin
            inBreakdown
            fact {
              accessionNumber
              form
            }
          }
        }
      }
    }
  }
`);

/** "0.5212" → "52.1%"; the service's ratios are decimal text, 4 places. */
const percentOf = (ratio: string | null | undefined) => (ratio == null ? '—' : `${(Number(ratio) * 100).toFixed(1)}%`);

/** A member's share of revenue as a bar: drawn with SVG attributes, which the dashboard's CSP allows (style attributes it does not). */
function ShareBar({ share }: { share: string | null | undefined }) {
  const width = Math.max(0, Math.min(1, Number(share ?? 0))) * 100;
  return (
    <svg className="segment-bar" viewBox="0 0 100 8" width="100" height="8" aria-hidden="true">
      <rect x="0" y="0" width="100" height="8" className="segment-bar-track" />
      <rect x="0" y="0" width={width} height="8" className="segment-bar-fill" />
    </svg>
  );
}

export function CompanySegments({ cik }: { cik: string }) {
  const [result, refetch] = useQuery({ query: CompanySegmentsQuery, variables: { cik } });
  if (result.fetching && !result.data) return <Loading what="the segments" />;
  if (result.error) return <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} />;
  const axes = result.data?.segments.axes ?? [];
  if (!axes.length) return <Empty>The filings held give no revenue by segment for this company (no dimensional revenue facts).</Empty>;
  return (
    <>
      {axes.map((axis) => {
        // the newest period the axis was reported for
        const latest = [...axis.periods].sort((a, b) => b.periodEnd.localeCompare(a.periodEnd))[0];
        if (!latest) return null;
        const members = latest.members.filter((m) => m.inBreakdown);
        return (
          <section key={axis.axis} className="segment-axis" aria-labelledby={`axis-${axis.axis}`}>
            <h3 id={`axis-${axis.axis}`}>
              {humanize(axis.kind)}: {axis.axis}{' '}
              {axis.confidence === 'low_confidence' ? <span className="status-badge status-client-error">Low confidence</span> : null}
            </h3>
            <p className="muted">
              {latest.periodStart} to {latest.periodEnd}, {latest.unit}
              {latest.total ? `; consolidated revenue ${formatDecimal(latest.total)}` : ''}. {latest.confidence === 'low_confidence' ? latest.reason : null}
              {axis.periods.length > 1 ? ` ${axis.periods.length} periods held.` : ''}
            </p>
            <ScrollingTable label={`Revenue by ${axis.axis}`}>
              <table className="segments-table">
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Revenue</th>
                    <th scope="col">Share of revenue</th>
                    <th scope="col">Growth</th>
                    <th scope="col">Operating margin</th>
                  </tr>
                </thead>
                <tbody>
                  {members.map((m) => (
                    <tr key={m.member}>
                      <th scope="row">{m.member}</th>
                      <td className="number">
                        <Link to={filingPath(m.fact.accessionNumber)} title={`From ${m.fact.form ?? 'the filing'} ${m.fact.accessionNumber}`}>
                          {formatDecimal(m.revenue)}
                        </Link>
                      </td>
                      <td>
                        <ShareBar share={m.shareOfTotal} /> {percentOf(m.shareOfTotal)}
                      </td>
                      <td className="number">{percentOf(m.yoyGrowth)}</td>
                      <td className="number">{percentOf(m.operatingMargin)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          </section>
        );
      })}
    </>
  );
}
