// Overview: the plan and billing state, credit, every quota window as a gauge, requests per meter
// class over the last 24 hours and 30 days, requests, cost and errors per meter class and per day
// (usage analytics), what the data holds and whether a load is running (ingest status), and the
// latest errors. One GraphQL request, charged
// to the free platform class: an organization whose data requests are refused (402) still sees
// all of it, and why, and where to pay.
import { useQuery } from 'urql';
import { IngestStatusPanel } from '../components/IngestStatusPanel.tsx';
import { RecentErrors } from '../components/RecentErrors.tsx';
import { QuotaGauge } from '../components/QuotaGauge.tsx';
import { Link } from 'react-router';
import { Loading, ProblemNotice, useTitle } from '../components/States.tsx';
import { UsageAnalyticsTable } from '../components/UsageAnalyticsTables.tsx';
import { UsageChart } from '../components/UsageChart.tsx';
import { formatMoney, formatNumber, humanize } from '../format.ts';
import { graphql } from '../gql';

const OverviewQuery = graphql(`
  query OverviewPage {
    organization {
      id
      name
    }
    billing {
      planKey
      billingState
      paygEnabled
      starterGrant {
        calls
        used
        remaining
      }
    }
    credits {
      balanceCents
      lowBalance
    }
    dataAccess: billingQuote(calls: 1, meterClass: "data_read") {
      allowed
      gates {
        code
        message
      }
    }
    limits {
      quotas {
        meterClass
        period
        allowed
        ...QuotaGauge
      }
    }
    day: requestUsage(range: last_24_hours) {
      ...UsageChart
    }
    month: requestUsage(range: last_30_days) {
      ...UsageChart
    }
    byClass: usageAnalytics(groupBy: [meter_class]) {
      ...UsageAnalyticsTable
    }
    byDay: usageAnalytics(groupBy: [day]) {
      ...UsageAnalyticsTable
    }
    ingestStatus {
      ...IngestStatusPanel
    }
    recentRequests(first: 10, errorsOnly: true) {
      ...RecentError
    }
  }
`);

export function OverviewPage() {
  useTitle('Overview');
  const [result, refetch] = useQuery({ query: OverviewQuery, requestPolicy: 'cache-and-network' });
  const data = result.data;

  const classes = new Map<string, NonNullable<typeof data>['limits']['quotas']>();
  for (const quota of data?.limits.quotas ?? []) {
    if (!quota.allowed) continue;
    classes.set(quota.meterClass, [...(classes.get(quota.meterClass) ?? []), quota]);
  }
  const notAllowed = [...new Set((data?.limits.quotas ?? []).filter((q) => !q.allowed).map((q) => q.meterClass))];

  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        {data ? (
          <button type="button" onClick={() => refetch({ requestPolicy: 'network-only' })} disabled={result.fetching}>
            Refresh
          </button>
        ) : null}
      </div>
      {result.fetching && !data ? <Loading what="the overview" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {data && !data.dataAccess.allowed ? (
        <div className="problem" role="alert">
          <p>
            <strong>Payment needed (402):</strong> data requests are refused now. {data.dataAccess.gates.map((gate) => gate.message).join(' ')}
          </p>
          <p>
            Top up prepaid credit or change the plan on <Link to="/billing">Billing</Link>; account pages such as this one keep working.
          </p>
        </div>
      ) : null}
      {data ? (
        <>
          <section aria-labelledby="plan-heading" className="cards">
            <h2 id="plan-heading" className="visually-hidden">
              Plan and billing
            </h2>
            <div className="card">
              <h3>Plan</h3>
              <p className="big">{humanize(data.billing.planKey)}</p>
              <p className="muted">{data.organization.name}</p>
            </div>
            <div className="card">
              <h3>Billing state</h3>
              <p className="big">{humanize(data.billing.billingState)}</p>
              <p className="muted">{data.billing.paygEnabled ? 'Pay-as-you-go is on' : 'Pay-as-you-go is off'}</p>
            </div>
            <div className="card">
              <h3>Credit balance</h3>
              <p className="big">{formatMoney(data.credits.balanceCents)}</p>
              <p className="muted">{data.credits.lowBalance ? 'Low: below the top-up threshold' : 'Prepaid credit'}</p>
            </div>
            {data.billing.planKey === 'sandbox_grant' ? (
              <div className="card">
                <h3>Starter grant</h3>
                <p className="big">
                  {formatNumber(data.billing.starterGrant.remaining)} <span className="unit">of {formatNumber(data.billing.starterGrant.calls)} calls left</span>
                </p>
                <p className="muted">{formatNumber(data.billing.starterGrant.used)} used</p>
              </div>
            ) : null}
          </section>

          <section aria-labelledby="quota-heading">
            <h2 id="quota-heading">Quota windows</h2>
            <p className="muted">What each window has counted so far, from the request records; a full window answers 429 until it starts again.</p>
            <div className="quota-grid">
              {[...classes].map(([meterClass, quotas]) => (
                <div className="card" key={meterClass}>
                  <h3>{meterClass}</h3>
                  <div className="gauges">
                    {quotas.map((q) => (
                      <QuotaGauge key={q.period} quota={q} />
                    ))}
                  </div>
                </div>
              ))}
            </div>
            {notAllowed.length ? <p className="muted">Not included in this plan: {notAllowed.join(', ')}.</p> : null}
          </section>

          <section aria-labelledby="usage-heading">
            <h2 id="usage-heading">Requests per meter class</h2>
            <div className="charts">
              <UsageChart usage={data.day} title="Last 24 hours" />
              <UsageChart usage={data.month} title="Last 30 days" />
            </div>
          </section>

          <section aria-labelledby="analytics-heading">
            <h2 id="analytics-heading">Requests, cost and errors</h2>
            <div className="charts">
              <UsageAnalyticsTable usage={data.byClass} by="meterClass" title="Per meter class" />
              <UsageAnalyticsTable usage={data.byDay} by="day" title="Per day" />
            </div>
          </section>

          <section aria-labelledby="ingest-heading">
            <h2 id="ingest-heading">Data held</h2>
            <IngestStatusPanel status={data.ingestStatus} />
          </section>

          <section aria-labelledby="errors-heading">
            <h2 id="errors-heading">Latest errors</h2>
            <RecentErrors requests={data.recentRequests} />
          </section>
        </>
      ) : null}
    </>
  );
}
