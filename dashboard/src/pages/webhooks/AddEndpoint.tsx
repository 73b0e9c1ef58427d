// Add endpoint: its URL, a description and the event types it receives, chosen from the
// service's catalog; its signing secret is shown once, here.
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { EndpointForm } from '../../components/webhooks/EndpointForm.tsx';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const EventTypeCatalogQuery = graphql(`
  query WebhookEventTypeCatalog {
    eventTypes {
      type
      ...EventTypePickerItem
    }
  }
`);

const CreateWebhookEndpoint = graphql(`
  mutation CreateWebhookEndpoint($input: WebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint {
        id
        url
      }
    }
  }
`);

export function AddEndpointPage() {
  useTitle('Add endpoint');
  const { role } = useViewer();
  const [catalog, refetch] = useQuery({ query: EventTypeCatalogQuery });
  const [created, create] = useMutation(CreateWebhookEndpoint);
  const done = created.data?.createWebhookEndpoint;

  return (
    <>
      <p className="crumbs">
        <Link to="/webhooks">Webhooks</Link>
      </p>
      <h1>Add endpoint</h1>
      {done ? (
        <>
          <SecretOnce
            secret={done.secret}
            name={done.endpoint.url}
            advice="Verify each delivery with it (any Standard Webhooks library) and store it in your secret manager. Should it be lost, use “Rotate secret” on the endpoint's page: the old secret keeps signing for 24 hours."
          />
          <div className="actions">
            <Link className="button primary" to={`/webhooks/${encodeURIComponent(done.endpoint.id)}`}>
              Open endpoint
            </Link>
            <Link to="/webhooks">Back to webhooks</Link>
          </div>
        </>
      ) : (
        <>
          {catalog.fetching && !catalog.data ? <Loading what="the event types" /> : null}
          {catalog.error ? <ProblemNotice error={catalog.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
          {catalog.data ? (
            <EndpointForm
              initial={{ url: '', description: '', eventTypes: [] }}
              eventTypes={catalog.data.eventTypes}
              submitLabel="Add endpoint"
              busy={created.fetching}
              disabled={!canManageIntegrations(role)}
              onSubmit={(values) => void create({ input: values })}
              before={canManageIntegrations(role) ? null : <IntegrationsRoleNote role={role} what="webhook endpoints" />}
              after={created.error ? <ProblemNotice error={created.error} context="Adding the endpoint" /> : null}
            />
          ) : null}
          <p>
            <Link to="/webhooks">Cancel</Link>
          </p>
        </>
      )}
    </>
  );
}
