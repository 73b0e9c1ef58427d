// Requests per meter class over time, drawn by uPlot (canvas), with the same numbers as a table
// for screen readers and for copying.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatNumber } from '../format.ts';
import { Empty, ScrollingTable } from './States.tsx';

export const UsageChartFragment = graphql(`
  fragment UsageChart on RequestUsage {
    range
    interval
    bucketStarts
    totalRequests
    series {
      meterClass
      requests
      errors
    }
  }
`);

// distinguishable and at least 3:1 against the white background
const palette = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f'];

const bucketLabel = (iso: string, interval: string) =>
  new Intl.DateTimeFormat(undefined, interval === 'hour' ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric' }).format(new Date(iso));

export function UsageChart(props: { usage: FragmentType<typeof UsageChartFragment>; title: string }) {
  const usage = useFragment(UsageChartFragment, props.usage);
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element || usage.totalRequests === 0) return;
    const xs = usage.bucketStarts.map((iso) => Date.parse(iso) / 1000);
    const width = () => Math.max(240, Math.floor(element.clientWidth));
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          { label: usage.interval === 'hour' ? 'Hour' : 'Day' },
          ...usage.series.map((s, i) => ({ label: s.meterClass, stroke: palette[i % palette.length], width: 2, points: { show: usage.interval === 'day' } })),
        ],
        axes: [{ stroke: '#334155' }, { stroke: '#334155', size: 56 }],
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
      },
      [xs, ...usage.series.map((s) => s.requests)],
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [usage]);

  const rangeName = usage.range === 'last_24_hours' ? 'last 24 hours' : 'last 30 days';
  return (
    <figure className="chart">
      <figcaption>
        <h3>{props.title}</h3>
        <span className="muted">
          {formatNumber(usage.totalRequests)} request{usage.totalRequests === 1 ? '' : 's'} in the {rangeName}, by {usage.interval}
        </span>
      </figcaption>
      {usage.totalRequests === 0 ? (
        <Empty>No requests in the {rangeName}. Calls made with this organization's keys or sessions appear here within a second.</Empty>
      ) : (
        <>
          <div className="chart-plot" ref={holder} aria-hidden="true" />
          <details>
            <summary>Show as a table</summary>
            <ScrollingTable label={`Table of requests, ${props.title.toLowerCase()}`}>
              <table>
                <caption className="visually-hidden">
                  Requests per meter class, {rangeName}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{usage.interval === 'hour' ? 'Hour' : 'Day'}</th>
                    {usage.series.map((s) => (
                      <th scope="col" key={s.meterClass}>
                        {s.meterClass}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {usage.bucketStarts.map((iso, i) => (
                    <tr key={iso}>
                      <th scope="row">{bucketLabel(iso, usage.interval)}</th>
                      {usage.series.map((s) => (
                        <td key={s.meterClass}>
                          {formatNumber(s.requests[i] ?? 0)}
                          {s.errors[i] ? <span className="muted"> ({s.errors[i]} failed)</span> : null}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          </details>
        </>
      )}
    </figure>
  );
}
