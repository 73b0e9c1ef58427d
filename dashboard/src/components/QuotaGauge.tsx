// One quota window as a gauge: how much of it the organization has used, and when it starts again.
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatCompact, formatNumber, formatTime } from '../format.ts';

export const QuotaGaugeFragment = graphql(`
  fragment QuotaGauge on Quota {
    meterClass
    period
    limit
    used
    resetsAt
  }
`);

const radius = 40;
const arc = Math.PI * radius;

export function QuotaGauge(props: { quota: FragmentType<typeof QuotaGaugeFragment> }) {
  const quota = useFragment(QuotaGaugeFragment, props.quota);
  const share = quota.limit > 0 ? Math.min(1, quota.used / quota.limit) : 1;
  const level = share >= 0.9 ? 'high' : share >= 0.7 ? 'medium' : 'low';
  const label = `${quota.meterClass}, per ${quota.period}: ${formatNumber(quota.used)} of ${formatNumber(quota.limit)} used (${Math.round(share * 100)}%), starts again at ${formatTime(quota.resetsAt)}`;
  return (
    <figure className="gauge">
      <svg viewBox="0 0 100 56" role="img" aria-label={label}>
        <path className="gauge-track" d={`M 10 50 A ${radius} ${radius} 0 0 1 90 50`} />
        {share > 0 ? <path className={`gauge-fill gauge-${level}`} d={`M 10 50 A ${radius} ${radius} 0 0 1 90 50`} strokeDasharray={`${share * arc} ${arc}`} /> : null}
      </svg>
      <figcaption>
        <span className="gauge-value">
          {formatCompact(quota.used)} / {formatCompact(quota.limit)}
        </span>
        <span className="gauge-period">per {quota.period}</span>
      </figcaption>
    </figure>
  );
}
