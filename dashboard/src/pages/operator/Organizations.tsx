// Operator: every organization, newest first, found by id, a part of its name or a member's
// email (?q=), paged by cursor (?after=). Only operators may read it; anyone else is told so.
import { Pager } from '../../components/Pager.tsx';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { OperatorNav } from '../../components/operator/OperatorNav.tsx';
import { Empty, Loading, ProblemNotice, ScrollingTable, useTitle } from '../../components/States.tsx';
import { formatDateTime, formatMoney, humanize } from '../../format.ts';
import { graphql } from '../../gql';

const pageSize = 25;

const OrganizationsQuery = graphql(`
  query OperatorOrganizationsPage($q: String, $first: Int!, $after: String) {
    operatorOrganizations(q: $q, first: $first, after: $after) {
      nodes {
        id
        name
        planKey
        billingState
        suspendedAt
        memberCount
        creditBalanceMillicents
        createdAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export function OperatorOrganizationsPage() {
  useTitle('Operator');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const after = params.get('after');
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const searchId = useId();
  const [result, refetch] = useQuery({ query: OrganizationsQuery, variables: { q: q || null, first: pageSize, after }, requestPolicy: 'cache-and-network' });
  const organizations = result.data?.operatorOrganizations.nodes ?? [];
  const pageInfo = result.data?.operatorOrganizations.pageInfo;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (search.trim()) next.set('q', search.trim());
    setParams(next);
  };

  return (
    <>
      <h1>Operator</h1>
      <OperatorNav />
      <h2>Organizations</h2>
      <form className="search" role="search" onSubmit={submit}>
        <label htmlFor={searchId}>Find an organization</label>
        <div className="search-row">
          <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Id, name, or a member's email" autoComplete="off" />
          <button type="submit">Search</button>
        </div>
      </form>
      {result.fetching && !result.data ? <Loading what="organizations" /> : null}
      {result.error ? <ProblemNotice error={result.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
      {result.data && organizations.length === 0 ? <Empty>{q ? `No organization matches “${q}”.` : 'There are no organizations yet.'}</Empty> : null}
      {organizations.length > 0 ? (
        <ScrollingTable label="Table of organizations">
          <table className="operator-orgs">
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Plan</th>
                <th scope="col">Billing state</th>
                <th scope="col">Credit</th>
                <th scope="col">Members</th>
                <th scope="col">Suspended</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {organizations.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <Link to={`/operator/organizations/${encodeURIComponent(o.id)}`}>{o.name}</Link>
                    <br />
                    <code className="muted">{o.id}</code>
                  </th>
                  <td>{humanize(o.planKey)}</td>
                  <td>{humanize(o.billingState)}</td>
                  <td>{formatMoney(o.creditBalanceMillicents / 1000)}</td>
                  <td>{o.memberCount}</td>
                  <td>{o.suspendedAt ? formatDateTime(o.suspendedAt) : 'No'}</td>
                  <td>{formatDateTime(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
      <Pager label="Pages of organizations" after={after} pageInfo={pageInfo} first="Newest organizations" next="Older organizations" />
    </>
  );
}
