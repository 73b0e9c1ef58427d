// Transfer ownership, step by step: choose the member who becomes owner, read what changes (you
// become admin), confirm. Only an owner may; the page says so to anyone else.
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { roleName } from '../../components/members/roleChoices.ts';
import { Empty, Loading, ProblemNotice, useTitle } from '../../components/States.tsx';
import { useClientControl } from '../../client.tsx';
import { graphql } from '../../gql';
import { canManageOwnership } from '../../roles.tsx';
import { useViewer } from '../../viewer.tsx';

const candidatesPerPage = 100;

const TransferCandidatesQuery = graphql(`
  query TransferOwnershipPage($first: Int!, $after: String) {
    me {
      user {
        id
      }
      organization {
        id
        name
      }
    }
    members(first: $first, after: $after) {
      nodes {
        id
        email
        role
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const TransferOwnership = graphql(`
  mutation TransferOwnership($memberId: String!) {
    transferOwnership(memberId: $memberId) {
      from {
        id
        email
        role
      }
      to {
        id
        email
        role
      }
    }
  }
`);

export function TransferOwnershipPage() {
  useTitle('Transfer ownership');
  const { role } = useViewer();
  const owner = canManageOwnership(role);
  const [params] = useSearchParams();
  const after = params.get('after');
  const [result, refetch] = useQuery({ query: TransferCandidatesQuery, variables: { first: candidatesPerPage, after }, pause: !owner, requestPolicy: 'cache-and-network' });
  const [chosen, setChosen] = useState(params.get('to') ?? '');
  const [understood, setUnderstood] = useState(false);
  const [problem, setProblem] = useState('');
  const [transferred, transfer] = useMutation(TransferOwnership);
  const { reset } = useClientControl();
  const ids = { select: useId(), understood: useId(), problem: useId() };

  const me = result.data?.me;
  const candidates = (result.data?.members.nodes ?? []).filter((m) => m.id !== me?.user?.id);
  const target = candidates.find((m) => m.id === chosen);
  const done = transferred.data?.transferOwnership;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return setProblem('Choose the member who becomes owner.');
    if (!understood) return setProblem('Confirm that you understand you become an admin.');
    setProblem('');
    const answer = await transfer({ memberId: target.id });
    // your own role changed: every page's answer, and what it allows, is now another
    if (!answer.error) reset();
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/members">Members</Link>
      </p>
      <h1>Transfer ownership</h1>
      {done ? (
        <>
          <p className="success" role="status">
            <strong>{done.to.email}</strong> is now an owner of {me?.organization?.name ?? 'the organization'}, and you are an {roleName(done.from.role)}.
          </p>
          <Link className="button" to="/members">
            Back to Members
          </Link>
        </>
      ) : !owner ? (
        <p className="note">
          Only an owner transfers ownership; your role is {roleName(role)}. Ask an owner of this organization.
        </p>
      ) : (
        <>
          {result.fetching && !result.data ? <Loading what="members" /> : null}
          {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
          {result.data && candidates.length === 0 ? (
            <Empty>
              There is no one else {after ? 'on this page of members' : 'in this organization'} to hand ownership to. <Link to="/members/invite">Invite member</Link> first; once
              they have accepted, come back here.
            </Empty>
          ) : null}
          {candidates.length > 0 ? (
            <form onSubmit={(e) => void submit(e)} noValidate>
              <ol className="steps member-steps">
                <li className="step">
                  <h2>Choose the new owner</h2>
                  <div className="field">
                    <label htmlFor={ids.select}>New owner</label>
                    <select id={ids.select} value={target ? chosen : ''} onChange={(e) => setChosen(e.target.value)}>
                      <option value="">Choose a member…</option>
                      {candidates.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.email} ({roleName(m.role)})
                        </option>
                      ))}
                    </select>
                  </div>
                  {result.data?.members.pageInfo.hasNextPage || after ? (
                    <nav className="pager" aria-label="Pages of members">
                      {after ? <Link to="/members/transfer">First members</Link> : null}
                      {result.data?.members.pageInfo.hasNextPage && result.data.members.pageInfo.endCursor ? (
                        <Link to={`/members/transfer?${new URLSearchParams({ after: result.data.members.pageInfo.endCursor })}`}>More members</Link>
                      ) : null}
                    </nav>
                  ) : null}
                </li>
                <li className="step">
                  <h2>What changes</h2>
                  <p>
                    {target ? <strong>{target.email}</strong> : 'The member you choose'} becomes owner: they can make and demote owners and transfer ownership. You become an admin: you
                    keep managing members, keys, integrations and billing, but only an owner can make you owner again.
                  </p>
                  <label className="check" htmlFor={ids.understood}>
                    <input id={ids.understood} type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />I understand that I become an admin
                  </label>
                </li>
                <li className="step">
                  <h2>Confirm</h2>
                  {problem ? (
                    <p className="field-error" id={ids.problem} role="alert">
                      {problem}
                    </p>
                  ) : null}
                  {transferred.error ? <ProblemNotice error={transferred.error} context="Transferring ownership" /> : null}
                  <div className="actions">
                    <button type="submit" className="primary" disabled={transferred.fetching} aria-describedby={problem ? ids.problem : undefined}>
                      Transfer ownership
                    </button>
                    <Link to="/members">Cancel</Link>
                  </div>
                </li>
              </ol>
            </form>
          ) : null}
        </>
      )}
    </>
  );
}
