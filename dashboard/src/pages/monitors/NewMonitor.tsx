// New monitor: a sentence becomes a saved read. While the person types, the sentence is compiled
// (debounced) into the query the monitor would save, what could not be placed is said, and the
// read is run to preview what kind of record it matches. The sentence is in the address (?q=),
// so a draft can be shared.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Empty, Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { DeliveryPicker, deliveryInput, draftOf, type DeliveryDraft } from '../../components/monitors/DeliveryPicker.tsx';
import { MatchItems } from '../../components/monitors/MatchItems.tsx';
import { asDelivery, asQuery, QuerySummary, type EndpointChoice } from '../../components/monitors/MonitorSpec.tsx';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

// one request a draft: the compiled sentence with its preview, and the destinations to choose from
const DraftQuery = graphql(`
  query MonitorDraft($text: String!, $compile: Boolean!) {
    compileMonitor(text: $text) @include(if: $compile) {
      query
      delivery
      confidence
      unparsed
      explanation
      preview(first: 5) {
        items
        hasMore
      }
    }
    webhookEndpoints(first: 50) {
      nodes {
        id
        url
        description
        status
      }
    }
  }
`);

const CreateMonitorMutation = graphql(`
  mutation CreateMonitorFromDraft($name: String!, $query: MonitorQueryInput!, $delivery: MonitorDeliveryInput) {
    createMonitor(name: $name, query: $query, delivery: $delivery) {
      id
      name
    }
  }
`);

/** How long typing pauses before the sentence is compiled. */
const debounceMs = 400;

export function NewMonitorPage() {
  useTitle('New monitor');
  const { role } = useViewer();
  const allowed = canManageIntegrations(role);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(params.get('q') ?? '');
  const [name, setName] = useState('');
  const [delivery, setDelivery] = useState<DeliveryDraft>({ type: 'none', address: '', webhookEndpointId: '' });
  const [deliveryTouched, setDeliveryTouched] = useState(false);
  const [formError, setFormError] = useState('');
  const ids = { sentence: useId(), hint: useId(), name: useId(), nameHint: useId() };

  // the address follows the text once typing pauses; the compile follows the address
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => {
      const next = new URLSearchParams(params);
      if (wanted) next.set('q', wanted);
      else next.delete('q');
      setParams(next, { replace: true });
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [text, q]);

  const [draft, refetchDraft] = useQuery({ query: DraftQuery, variables: { text: q, compile: Boolean(q) } });
  const [created, create] = useMutation(CreateMonitorMutation);
  // what the last answer held, while the next one (the sentence changed) is on its way
  const [endpoints, setEndpoints] = useState<readonly EndpointChoice[]>([]);
  const answered = draft.data?.webhookEndpoints.nodes;
  useEffect(() => {
    if (answered) setEndpoints(answered);
  }, [answered]);
  const compiled = q ? (draft.data?.compileMonitor ?? undefined) : undefined;

  // "email me at …" or "to my webhook" in the sentence chooses the destination, until the person does
  const compiledDelivery = JSON.stringify(compiled?.delivery ?? null);
  useEffect(() => {
    if (!deliveryTouched && compiled?.delivery) setDelivery(draftOf(asDelivery(compiled.delivery), endpoints));
  }, [compiledDelivery]);
  const shown: DeliveryDraft = { ...delivery, webhookEndpointId: delivery.webhookEndpointId || endpoints[0]?.id || '' };

  const pending = text.trim() !== q || draft.fetching;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError('');
    if (!compiled || pending) {
      setFormError('Type a sentence the service can compile, and wait for its query to show, before saving.');
      return;
    }
    const chosen = deliveryInput(shown);
    if ('missing' in chosen) {
      setFormError(chosen.missing);
      return;
    }
    const query = asQuery(compiled.query);
    const result = await create({ name: (name.trim() || q).slice(0, 200), query: { route: query.route, params: query.params ?? {}, threshold: query.threshold ?? null }, delivery: chosen.delivery });
    if (result.data) navigate(`/monitors/${encodeURIComponent(result.data.createMonitor.id)}`);
  };

  const query = compiled ? asQuery(compiled.query) : null;
  return (
    <>
      <p className="crumbs">
        <Link to="/monitors">Monitors</Link>
      </p>
      <h1>New monitor</h1>
      {allowed ? null : <IntegrationsRoleNote role={role} what="monitors" />}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor={ids.sentence}>Type a sentence</label>
          <textarea
            id={ids.sentence}
            className="sentence"
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={1000}
            aria-describedby={ids.hint}
            spellCheck={false}
          />
          <p className="muted" id={ids.hint}>
            Name a company (ticker or name), a form or 8-K event, a fact threshold or dates, for example “Alert me when Apple files an 8-K” or “Apple revenue below 1B,
            email me at ops@example.com”.
          </p>
        </div>

        <section aria-labelledby={`${ids.sentence}-compiled`} aria-busy={pending}>
          <h2 id={`${ids.sentence}-compiled`}>Compiled query</h2>
          {!q && !text.trim() ? <Empty>Type a sentence: its query shows here as you type.</Empty> : null}
          {pending && text.trim() ? <Loading what="the compiled query" /> : null}
          {draft.error && !compiled && q ? <ProblemNotice error={draft.error} context="Compiling the sentence" /> : null}
          {compiled && query ? (
            <>
              <QuerySummary query={query} />
              <p>{compiled.explanation}</p>
              {compiled.unparsed.length ? (
                <div className="note">
                  <p>Could not place these words; the monitor watches without them. Reword the sentence to include them:</p>
                  <ul className="unparsed">
                    {compiled.unparsed.map((u) => (
                      <li key={u}>“{u}”</li>
                    ))}
                  </ul>
                </div>
              ) : (
                <p className="success">Every part of the sentence was placed.</p>
              )}
              <p className="muted">Confidence {Math.round(compiled.confidence * 100)}%.</p>
            </>
          ) : null}
        </section>

        {compiled ? (
          <section aria-labelledby={`${ids.sentence}-preview`}>
            <h2 id={`${ids.sentence}-preview`}>Preview</h2>
            <p className="muted">
              What this read lists now. A monitor matches only records ingested after it is saved: these show the kind of record it will send.
            </p>
            {compiled.preview ? (
              compiled.preview.items.length ? (
                <>
                  <MatchItems items={compiled.preview.items} label="Preview of the records the read lists now" />
                  {compiled.preview.hasMore ? <p className="muted">The read lists more; these are its first {compiled.preview.items.length}.</p> : null}
                </>
              ) : (
                <Empty>The read lists no records now. The monitor still watches for new ones.</Empty>
              )
            ) : draft.error ? (
              <ProblemNotice error={draft.error} context="Previewing" />
            ) : null}
          </section>
        ) : null}

        <h2>Save</h2>
        <div className="field">
          <label htmlFor={ids.name}>Name</label>
          <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} autoComplete="off" placeholder={q.slice(0, 200)} aria-describedby={ids.nameHint} />
          <p className="muted" id={ids.nameHint}>
            Left empty, the monitor is named after the sentence.
          </p>
        </div>
        {draft.error && !draft.data && !q ? <ProblemNotice error={draft.error} context="Reading the webhook endpoints" retry={() => refetchDraft({ requestPolicy: 'network-only' })} /> : null}
        {draft.fetching && !draft.data && !q ? <Loading what="webhook endpoints" /> : null}
        <DeliveryPicker
          value={shown}
          endpoints={endpoints}
          disabled={!allowed}
          onChange={(next) => {
            setDeliveryTouched(true);
            setDelivery(next);
          }}
        />
        {formError ? (
          <p className="field-error" role="alert">
            {formError}
          </p>
        ) : null}
        {created.error ? <ProblemNotice error={created.error} context="Saving the monitor" /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={!allowed || created.fetching}>
            Save monitor
          </button>
          <Link to="/monitors">Cancel</Link>
        </div>
      </form>
    </>
  );
}
