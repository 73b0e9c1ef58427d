// Members: the organization's people with their roles, changing a role, removing someone, and
// (for owners and admins) the pending invitations. One GraphQL request: owners and admins ask
// for the invitations too, which another role may not read, so each asks its own document.
import { Pager } from '../../components/Pager.tsx';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { InvitationRow } from '../../components/members/InvitationRow.tsx';
import { MemberRow } from '../../components/members/MemberRow.tsx';
import { roleName } from '../../components/members/roleChoices.ts';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { graphql } from '../../gql';
import { canManageMembers, canManageOwnership } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

export const membersPageSize = 25;

const MembersManageQuery = graphql(`
  query MembersManagePage($first: Int!, $after: String, $invitationsFirst: Int!, $invitationsAfter: String) {
    me {
      user {
        id
      }
    }
    members(first: $first, after: $after) {
      nodes {
        id
        ...MemberRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    invitations(first: $invitationsFirst, after: $invitationsAfter) {
      nodes {
        id
        ...InvitationRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    myInvitations {
      id
    }
  }
`);

const MembersReadQuery = graphql(`
  query MembersReadPage($first: Int!, $after: String) {
    me {
      user {
        id
      }
    }
    members(first: $first, after: $after) {
      nodes {
        id
        ...MemberRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    myInvitations {
      id
    }
  }
`);

const memberColumns = 5;
const invitationColumns = 6;
// an invitation or a member change elsewhere on the page (or another page) refetches the lists
const context = { additionalTypenames: ['Member', 'Invitation'] };

export function MembersPage() {
  useTitle('Members');
  const { role } = useViewer();
  const manage = canManageMembers(role);
  const [params] = useSearchParams();
  const after = params.get('after');
  const invitationsAfter = params.get('invitationsAfter');
  const roleNoteId = useId();
  const ownershipNoteId = useId();

  const [managed, refetchManaged] = useQuery({
    query: MembersManageQuery,
    variables: { first: membersPageSize, after, invitationsFirst: membersPageSize, invitationsAfter },
    requestPolicy: 'cache-and-network',
    context,
    pause: !manage,
  });
  const [read, refetchRead] = useQuery({ query: MembersReadQuery, variables: { first: membersPageSize, after }, requestPolicy: 'cache-and-network', context, pause: manage });
  const result = manage ? managed : read;
  const refetch = () => (manage ? refetchManaged : refetchRead)({ requestPolicy: 'network-only' });
  const data = result.data;
  const invitations = managed.data?.invitations;
  const mine = data?.myInvitations.length ?? 0;

  const pageLink = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    const query = next.toString();
    return `/members${query ? `?${query}` : ''}`;
  };

  return (
    <>
      <div className="page-head">
        <h1>Members</h1>
        <div className="actions">
          {manage ? (
            <Link className="button primary" to="/members/invite">
              Invite member
            </Link>
          ) : (
            <button type="button" className="primary" disabled aria-describedby={roleNoteId}>
              Invite member
            </button>
          )}
          {canManageOwnership(role) ? (
            <Link className="button" to="/members/transfer">
              Transfer ownership
            </Link>
          ) : (
            <button type="button" disabled aria-describedby={ownershipNoteId}>
              Transfer ownership
            </button>
          )}
        </div>
      </div>
      <p className="muted">Everyone who signs in to this organization, and what their role lets them do.</p>
      {manage ? null : (
        <p className="note" id={roleNoteId}>
          Your role ({roleName(role)}) can see the members but not invite, remove or change the roles of members: that needs owner or admin. Ask an owner or admin of this
          organization. You can leave the organization yourself.
        </p>
      )}
      {canManageOwnership(role) ? null : (
        <p className="muted" id={ownershipNoteId}>
          Only an owner transfers ownership; your role is {roleName(role)}.
        </p>
      )}
      {mine > 0 ? (
        <p className="note">
          You have {mine === 1 ? 'an invitation' : `${mine} invitations`} to join {mine === 1 ? 'an organization' : 'organizations'}.{' '}
          <Link to="/invitations">See your invitations</Link>
        </p>
      ) : null}

      {result.fetching && !data ? <Loading what="members" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={refetch} /> : null}
      {data && data.members.nodes.length === 0 ? <Empty>No members on this page. <Link to="/members">Back to the first members</Link></Empty> : null}
      {data && data.members.nodes.length > 0 ? (
        <ScrollingTable label="Table of members">
          <table className="members-table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.members.nodes.map((m) => (
                <MemberRow key={m.id} member={m} viewerRole={role} viewerId={data.me.user?.id ?? null} roleNoteId={roleNoteId} columns={memberColumns} />
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      {data?.members.pageInfo.hasNextPage || after ? (
        <nav className="pager" aria-label="Pages of members">
          {after ? <Link to={pageLink({ after: null })}>First members</Link> : null}
          {data?.members.pageInfo.hasNextPage && data.members.pageInfo.endCursor ? <Link to={pageLink({ after: data.members.pageInfo.endCursor })}>More members</Link> : null}
        </nav>
      ) : null}

      {manage ? (
        <section aria-labelledby="pending-invitations">
          <h2 id="pending-invitations">Pending invitations</h2>
          {invitations && invitations.nodes.length === 0 ? (
            <Empty>
              {invitationsAfter ? 'No more pending invitations.' : 'No invitations are waiting to be accepted.'} <Link to="/members/invite">Invite member</Link> to add someone by
              email.
            </Empty>
          ) : null}
          {invitations && invitations.nodes.length > 0 ? (
            <ScrollingTable label="Table of pending invitations">
              <table className="invitations-table">
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Invited by</th>
                    <th scope="col">Sent</th>
                    <th scope="col">Link works until</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.nodes.map((i) => (
                    <InvitationRow key={i.id} invitation={i} columns={invitationColumns} />
                  ))}
                </tbody>
              </table>
            </ScrollingTable>
          ) : null}
          <Pager label="Pages of invitations" param="invitationsAfter" after={invitationsAfter} pageInfo={invitations?.pageInfo} first="Newest invitations" next="Older invitations" />
        </section>
      ) : null}
    </>
  );
}
