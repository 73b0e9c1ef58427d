// What calls would cost: a meter class or a named workflow, and how many, priced against the plan
// and budget as they are now (billingQuote), with the 402 gates the calls would meet. Nothing is
// reserved. The question is in the address (`?quote=…&calls=…`), so an answer can be shared.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatMoney, formatNumber } from '../../format.ts';
import { Loading, ProblemNotice } from '../States.tsx';
import { formatMillicents } from './money.ts';

export const QuoteChoicesFragment = graphql(`
  fragment QuoteChoices on PricingCatalog {
    meterRates {
      key
      description
      ratePer1000CallsCents
    }
    workflows {
      key
      name
      steps {
        meterClass
        calls
      }
    }
  }
`);

const QuoteQuery = graphql(`
  query BillingQuoteEstimate($meterClass: String, $workflow: String, $calls: Int!) {
    billingQuote(meterClass: $meterClass, workflow: $workflow, calls: $calls) {
      planKey
      steps {
        meterClass
        calls
        estimatedMillicents
      }
      estimatedMillicents
      estimatedCents
      gates {
        code
        message
      }
      allowed
    }
  }
`);

/** "Portfolio review (2 analytics and 10 data_read calls a run)": a run is priced as its steps. */
const workflowLabel = (w: { name: string; steps: { meterClass: string; calls: number }[] }) =>
  `${w.name} (${w.steps.map((s) => `${formatNumber(s.calls)} ${s.meterClass}`).join(' and ')} calls a run)`;
const workflowPrefix = 'workflow:';
const maxCalls = 10_000_000;

export function QuoteCalculator(props: { catalog: FragmentType<typeof QuoteChoicesFragment> }) {
  const { meterRates, workflows } = useFragment(QuoteChoicesFragment, props.catalog);
  const [params, setParams] = useSearchParams();
  const asked = params.get('quote');
  const askedCalls = Number(params.get('calls'));
  const valid = Boolean(asked) && Number.isInteger(askedCalls) && askedCalls >= 1 && askedCalls <= maxCalls;
  const workflow = asked?.startsWith(workflowPrefix) ? asked.slice(workflowPrefix.length) : null;
  const [result] = useQuery({
    query: QuoteQuery,
    variables: { meterClass: workflow ? null : asked, workflow, calls: valid ? askedCalls : 1 },
    pause: !valid,
    requestPolicy: 'network-only',
  });
  const [what, setWhat] = useState(asked ?? meterRates[0]?.key ?? '');
  const [calls, setCalls] = useState(params.get('calls') ?? '1000');
  const [error, setError] = useState('');
  const ids = { what: useId(), calls: useId(), error: useId(), result: useId() };

  useEffect(() => {
    if (asked) setWhat(asked);
    if (params.get('calls')) setCalls(params.get('calls')!);
  }, [asked, params.get('calls')]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(calls.replace(/,/g, ''));
    if (!Number.isInteger(n) || n < 1 || n > maxCalls) {
      setError(`Enter a whole number of calls from 1 to ${formatNumber(maxCalls)}.`);
      return;
    }
    setError('');
    const next = new URLSearchParams(params);
    next.set('quote', what);
    next.set('calls', String(n));
    setParams(next, { preventScrollReset: true });
  };

  const quote = valid ? result.data?.billingQuote : undefined;
  return (
    <section className="card billing-quote" aria-labelledby="billing-quote-heading">
      <h2 id="billing-quote-heading">Quote calculator</h2>
      <form onSubmit={submit} noValidate aria-label="Quote calls">
        <div className="field">
          <label htmlFor={ids.what}>Meter class or workflow</label>
          <select id={ids.what} value={what} onChange={(e) => setWhat(e.target.value)}>
            <optgroup label="Meter classes">
              {meterRates.map((m) => (
                <option key={m.key} value={m.key}>
                  {m.key}: {formatMoney(m.ratePer1000CallsCents)} per 1,000 calls
                </option>
              ))}
            </optgroup>
            <optgroup label="Workflows">
              {workflows.map((w) => (
                <option key={w.key} value={`${workflowPrefix}${w.key}`}>
                  {workflowLabel(w)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.calls}>{what.startsWith(workflowPrefix) ? 'Runs' : 'Calls'}</label>
          <input id={ids.calls} inputMode="numeric" value={calls} onChange={(e) => setCalls(e.target.value)} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} />
          {error ? (
            <p className="field-error" id={ids.error}>
              {error}
            </p>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit">Estimate</button>
        </div>
      </form>
      <div aria-live="polite" id={ids.result}>
        {valid && result.fetching && !quote ? <Loading what="the estimate" /> : null}
        {valid && result.error ? <ProblemNotice error={result.error} context="Estimating" /> : null}
        {quote ? (
          <div className="quote">
            <p>
              Estimate: <strong className="quote-estimate">{formatMoney(quote.estimatedCents)}</strong>{' '}
              <span className="muted">({formatMillicents(quote.estimatedMillicents)} exactly, on the {quote.planKey} plan)</span>
            </p>
            {quote.steps.length > 1 ? (
              <ul>
                {quote.steps.map((s) => (
                  <li key={s.meterClass}>
                    {formatNumber(s.calls)} {s.meterClass} calls: {formatMillicents(s.estimatedMillicents)}
                  </li>
                ))}
              </ul>
            ) : null}
            {quote.allowed ? (
              <p className="success">No 402 gate: these calls would be served now.</p>
            ) : (
              <div className="note">
                <p>These calls would be refused now (402):</p>
                <ul className="gates">
                  {quote.gates.map((g) => (
                    <li key={g.code}>
                      <code>{g.code}</code>: {g.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        ) : null}
      </div>
    </section>
  );
}
