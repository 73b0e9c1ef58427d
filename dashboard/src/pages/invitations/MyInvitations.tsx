// Your invitations: the pending invitations addressed to the signed-in person, in any
// organization, each opening its page to accept it.
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { roleName } from '../../components/members/roleChoices.ts';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';

const MyInvitationsQuery = graphql(`
  query MyInvitationsPage {
    me {
      user {
        email
      }
    }
    myInvitations {
      id
      role
      expiresAt
      organization {
        id
        name
      }
      invitedBy {
        email
      }
    }
  }
`);

// one object for every render: urql takes a new context for a new request
const context = { additionalTypenames: ['Invitation'] };

export function MyInvitationsPage() {
  useTitle('Your invitations');
  const [result, refetch] = useQuery({ query: MyInvitationsQuery, requestPolicy: 'cache-and-network', context });
  const invitations = result.data?.myInvitations ?? [];
  return (
    <>
      <h1>Your invitations</h1>
      <p className="muted">Invitations waiting for {result.data?.me.user?.email ?? 'your address'} to join an organization. Each works once, for 7 days.</p>
      {result.fetching && !result.data ? <Loading what="your invitations" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && invitations.length === 0 ? (
        <Empty>No invitations are waiting for you. An invitation arrives by email; open its link to accept it.</Empty>
      ) : null}
      {invitations.length > 0 ? (
        <ScrollingTable label="Table of your invitations">
          <table className="my-invitations-table">
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Link works until</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{i.organization.name}</th>
                  <td data-label="Role">{roleName(i.role)}</td>
                  <td data-label="Invited by">{i.invitedBy?.email ?? <span className="muted">A former member</span>}</td>
                  <td data-label="Link works until">{formatDateTime(i.expiresAt)}</td>
                  <td data-label="Actions">
                    <Link to={`/invitations/${encodeURIComponent(i.id)}`}>
                      Open<span className="visually-hidden"> the invitation to {i.organization.name}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
    </>
  );
}
