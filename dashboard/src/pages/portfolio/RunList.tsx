// Every run of the organization, newest first (the graph's `artifacts`): each reopens on its own
// page, and downloads as Markdown or JSON.
import { Link } from 'react-router';
import { Pager } from '../../components/Pager.tsx';
import { Empty, Loading, ScrollingTable } from '../../components/States.tsx';
import { formatDateTime, humanize } from '../../format.ts';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { artifactPath, exportHref } from './figures.ts';

export const RunListFragment = graphql(`
  fragment PortfolioRunList on QueryArtifactsConnection {
    nodes {
      id
      kind
      title
      createdAt
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
`);

export function RunList(props: { artifacts: FragmentType<typeof RunListFragment> | null; fetching: boolean; after: string | null }) {
  const page = useFragment(RunListFragment, props.artifacts);
  if (!page) return props.fetching ? <Loading what="the runs" /> : null;
  if (!page.nodes.length) return <Empty>No runs yet. Paste holdings above and run an analysis: each run is kept here.</Empty>;
  return (
    <>
      <ScrollingTable label="Runs">
        <table className="portfolio-run-list">
          <caption className="visually-hidden">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Kind</th>
              <th scope="col">Made</th>
              <th scope="col">Download</th>
            </tr>
          </thead>
          <tbody>
            {page.nodes.map((a) => (
              <tr key={a.id}>
                <th scope="row">
                  <Link to={artifactPath(a.id)}>{a.title}</Link>
                </th>
                <td>{humanize(a.kind)}</td>
                <td>{formatDateTime(a.createdAt)}</td>
                <td className="portfolio-downloads">
                  <a href={exportHref(a.id, 'markdown')} download aria-label={`Markdown of ${a.title}, ${a.id}`}>
                    Markdown
                  </a>{' '}
                  <a href={exportHref(a.id, 'json')} download aria-label={`JSON of ${a.title}, ${a.id}`}>
                    JSON
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
      <Pager label="Pages of runs" after={props.after} pageInfo={page.pageInfo} first="Newest runs" next="Older runs" />
    </>
  );
}
