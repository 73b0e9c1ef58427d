// Create key: a name and a scope; the secret is shown once, here, with a copy button.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { useViewer } from '../viewer.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { ProblemNotice, useTitle } from '../components/States.tsx';
import { graphql } from '../gql';
import { canManageKeys, RoleNote } from '../roles.tsx';

export const CreateApiKey = graphql(`
  mutation CreateApiKey($name: String!, $scopes: [String!]) {
    createApiKey(name: $name, scopes: $scopes) {
      secret
      apiKey {
        id
        name
        scopes
      }
    }
  }
`);

export const scopeChoices = [
  { value: 'organization', label: 'Full access', description: 'Every route a key may call, changes included (monitors, webhooks, streams).' },
  { value: 'read', label: 'Read only', description: 'The same reads, and nothing that changes the organization.' },
] as const;

export function CreateKeyPage() {
  useTitle('Create key');
  const { role } = useViewer();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<string>('organization');
  const [nameError, setNameError] = useState('');
  const [created, create] = useMutation(CreateApiKey);
  const nameId = useId();
  const nameErrorId = useId();
  const scopeId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give the key a name, such as the program or machine that will use it.');
      return;
    }
    setNameError('');
    await create({ name: name.trim(), scopes: [scope] });
  };

  const done = created.data?.createApiKey;
  return (
    <>
      <p className="crumbs">
        <Link to="/keys">API keys</Link>
      </p>
      <h1>Create key</h1>
      {done ? (
        <>
          <SecretOnce secret={done.secret} name={done.apiKey.name} />
          <p>
            Try it: <code className="wrap">curl -H "x-api-key: …" {location.origin}/v1/me</code>
          </p>
          <Link className="button" to="/keys">
            Done
          </Link>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          {canManageKeys(role) ? null : <RoleNote role={role} />}
          <div className="field">
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              autoComplete="off"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? nameErrorId : undefined}
            />
            {nameError ? (
              <p className="field-error" id={nameErrorId}>
                {nameError}
              </p>
            ) : null}
          </div>
          <fieldset>
            <legend>Scopes</legend>
            {scopeChoices.map((choice) => (
              <div className="choice" key={choice.value}>
                <input
                  type="radio"
                  id={`${scopeId}-${choice.value}`}
                  name="scope"
                  value={choice.value}
                  checked={scope === choice.value}
                  onChange={() => setScope(choice.value)}
                  aria-describedby={`${scopeId}-${choice.value}-about`}
                />
                <div>
                  <label htmlFor={`${scopeId}-${choice.value}`}>
                    <strong>{choice.label}</strong>
                  </label>
                  <p className="muted choice-about" id={`${scopeId}-${choice.value}-about`}>
                    <code>{choice.value}</code>: {choice.description}
                  </p>
                </div>
              </div>
            ))}
          </fieldset>
          {created.error ? <ProblemNotice error={created.error} context="Creating the key" /> : null}
          <div className="actions">
            <button type="submit" className="primary" disabled={created.fetching}>
              Create key
            </button>
            <Link to="/keys">Cancel</Link>
          </div>
        </form>
      )}
    </>
  );
}
