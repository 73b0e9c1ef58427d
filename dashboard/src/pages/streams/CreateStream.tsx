// Create stream: a name, the event types it reads (from the service's catalog), filters for
// public data events, and how it is meant to be read; then its page, with the live tail.
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { EventTypePicker } from '../../components/webhooks/EventTypePicker.tsx';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';
import { transportNames } from './StreamList.tsx';

const StreamEventTypeCatalogQuery = graphql(`
  query StreamEventTypeCatalog {
    eventTypes {
      type
      ...EventTypePickerItem
    }
  }
`);

const CreateStreamSubscription = graphql(`
  mutation CreateStreamSubscription($input: StreamSubscriptionInput!) {
    createStreamSubscription(input: $input) {
      id
    }
  }
`);

const list = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);

function ListField({ label, hint, value, onChange }: { label: string; hint: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" spellCheck={false} aria-describedby={`${id}-hint`} />
      <p className="muted choice-about" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}

export function CreateStreamPage() {
  useTitle('Create stream');
  const { role } = useViewer();
  const allowed = canManageIntegrations(role);
  const navigate = useNavigate();
  const [catalog, refetch] = useQuery({ query: StreamEventTypeCatalogQuery });
  const [created, create] = useMutation(CreateStreamSubscription);
  const [name, setName] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [tickers, setTickers] = useState('');
  const [ciks, setCiks] = useState('');
  const [forms, setForms] = useState('');
  const [transport, setTransport] = useState('graphql_ws');
  const [typesError, setTypesError] = useState('');
  const nameId = useId();
  const transportId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!types.length) {
      setTypesError('Choose at least one event type, or every event of this organization.');
      return;
    }
    setTypesError('');
    const answer = await create({ input: { description: name.trim(), eventTypes: types, tickers: list(tickers), ciks: list(ciks), forms: list(forms), transport } });
    if (answer.data) navigate(`/streams/${encodeURIComponent(answer.data.createStreamSubscription.id)}`);
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/streams">Streams</Link>
      </p>
      <h1>Create stream</h1>
      {catalog.fetching && !catalog.data ? <Loading what="the event types" /> : null}
      {catalog.error ? <ProblemNotice error={catalog.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {catalog.data ? (
        <form onSubmit={(e) => void submit(e)} noValidate>
          {allowed ? null : <IntegrationsRoleNote role={role} what="streams" />}
          <div className="field">
            <label htmlFor={nameId}>Name</label>
            <input id={nameId} value={name} onChange={(e) => setName(e.target.value)} maxLength={500} autoComplete="off" />
          </div>
          <EventTypePicker eventTypes={catalog.data.eventTypes} selected={types} onChange={setTypes} error={typesError} />
          <fieldset>
            <legend>Filters for public data events</legend>
            <p className="muted choice-about">They narrow public data events (such as filing.added) chosen above; leave them empty for all. Separate values with commas.</p>
            <ListField label="Tickers" hint="Any of these tickers, such as AAPL, MSFT." value={tickers} onChange={setTickers} />
            <ListField label="CIKs" hint="Any of these companies, by CIK." value={ciks} onChange={setCiks} />
            <ListField label="Forms" hint="Any of these forms, such as 8-K, 10-Q." value={forms} onChange={setForms} />
          </fieldset>
          <fieldset>
            <legend>Read by</legend>
            {Object.entries(transportNames).map(([value, label]) => (
              <div className="choice" key={value}>
                <input type="radio" id={`${transportId}-${value}`} name="transport" value={value} checked={transport === value} onChange={() => setTransport(value)} />
                <label htmlFor={`${transportId}-${value}`}>{label}</label>
              </div>
            ))}
            <p className="muted choice-about">What your program intends; both ways read the same events.</p>
          </fieldset>
          {created.error ? <ProblemNotice error={created.error} context="Creating the stream" /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={!allowed || created.fetching}>
              Create stream
            </button>
            <Link to="/streams">Cancel</Link>
          </div>
        </form>
      ) : null}
    </>
  );
}
