// Edit an endpoint's URL, description and event types; back to its page once saved.
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { EndpointForm } from '../../components/webhooks/EndpointForm.tsx';
import { graphql } from '../../gql';
import { canManageIntegrations, IntegrationsRoleNote } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const EditEndpointQuery = graphql(`
  query WebhookEditPage($id: String!) {
    webhookEndpoint(id: $id) {
      id
      url
      description
      eventTypes
    }
    eventTypes {
      type
      ...EventTypePickerItem
    }
  }
`);

const UpdateWebhookEndpoint = graphql(`
  mutation UpdateWebhookEndpoint($id: String!, $input: WebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) {
      id
      url
      description
      eventTypes
      updatedAt
    }
  }
`);

export function EditEndpointPage() {
  useTitle('Edit endpoint');
  const { endpointId = '' } = useParams();
  const { role } = useViewer();
  const navigate = useNavigate();
  const [result, refetch] = useQuery({ query: EditEndpointQuery, variables: { id: endpointId }, requestPolicy: 'cache-and-network' });
  const [updated, update] = useMutation(UpdateWebhookEndpoint);
  const endpoint = result.data?.webhookEndpoint;
  const back = `/webhooks/${encodeURIComponent(endpointId)}`;

  return (
    <>
      <p className="crumbs">
        <Link to="/webhooks">Webhooks</Link> / <Link to={back}>Endpoint</Link>
      </p>
      <h1>Edit endpoint</h1>
      {result.fetching && !result.data ? <Loading what="the endpoint" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {endpoint && result.data ? (
        <EndpointForm
          // a fresh form once the endpoint is known
          key={endpoint.id}
          initial={{ url: endpoint.url, description: endpoint.description, eventTypes: [...endpoint.eventTypes] }}
          eventTypes={result.data.eventTypes}
          submitLabel="Save changes"
          busy={updated.fetching}
          disabled={!canManageIntegrations(role)}
          onSubmit={async (values) => {
            const answer = await update({ id: endpointId, input: values });
            if (answer.data) navigate(back);
          }}
          before={canManageIntegrations(role) ? null : <IntegrationsRoleNote role={role} what="webhook endpoints" />}
          after={updated.error ? <ProblemNotice error={updated.error} context="Saving" /> : null}
        />
      ) : null}
      <p>
        <Link to={back}>Cancel</Link>
      </p>
    </>
  );
}
