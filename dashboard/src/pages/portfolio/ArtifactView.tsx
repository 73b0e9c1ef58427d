// One stored run, read back from the graph's `artifact` (its result and manifest exactly as kept):
// the run's figures by its kind, and the downloads the artifacts route renders (Markdown, JSON).
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { Loading, ProblemNotice } from '../../components/States.tsx';
import { formatDateTime } from '../../format.ts';
import { graphql } from '../../gql';
import { AnalysisView } from './AnalysisView.tsx';
import { AttributionView } from './AttributionView.tsx';
import { artifactPath, exportHref, type Manifest } from './figures.ts';
import { HedgeView } from './HedgeView.tsx';
import { OptimizeView } from './OptimizeView.tsx';
import { RiskView } from './RiskView.tsx';
import { StressView } from './StressView.tsx';

const ArtifactQuery = graphql(`
  query PortfolioArtifact($id: String!) {
    artifact(id: $id) {
      id
      kind
      title
      contentHash
      createdAt
      manifest
      result
    }
  }
`);

type View = ComponentType<{ result: never; manifest: Manifest }>;

/** The figures of each kind of portfolio run; another kind of artifact is read from its export. */
const views: Record<string, View> = {
  portfolio_analysis: AnalysisView,
  portfolio_risk: RiskView,
  portfolio_attribution: AttributionView,
  portfolio_stress_test: StressView,
  portfolio_optimization: OptimizeView,
  portfolio_hedge: HedgeView,
};

export function ExportLinks({ id }: { id: string }) {
  return (
    <p className="actions portfolio-exports">
      <a href={exportHref(id, 'markdown')} download>
        Download Markdown
      </a>
      <a href={exportHref(id, 'json')} download>
        Download JSON
      </a>
    </p>
  );
}

/** `heading`: the level of the run's title, under the page's own. */
export function ArtifactView({ id, heading = 'h2', linked = true }: { id: string; heading?: 'h1' | 'h2'; linked?: boolean }) {
  const [read, refetch] = useQuery({ query: ArtifactQuery, variables: { id } });
  const artifact = read.data?.artifact;
  if (read.fetching && !artifact) return <Loading what="the run" />;
  if (read.error) return <ProblemNotice error={read.error} context="Reading the run" retry={() => refetch({ requestPolicy: 'network-only' })} />;
  if (!artifact) return null;
  const View = views[artifact.kind];
  const Heading = heading;
  return (
    <section className="portfolio-run" aria-labelledby={`run-${artifact.id}`} data-artifact={artifact.id}>
      <Heading id={`run-${artifact.id}`}>{linked ? <Link to={artifactPath(artifact.id)}>{artifact.title}</Link> : artifact.title}</Heading>
      <p className="muted">
        Artifact <code>{artifact.id}</code>, {formatDateTime(artifact.createdAt)}; content hash <code className="portfolio-hash">{artifact.contentHash}</code>
      </p>
      <ExportLinks id={artifact.id} />
      {View ? <View result={artifact.result as never} manifest={artifact.manifest as Manifest} /> : <p className="note">This page draws portfolio runs; the downloads above hold this {artifact.kind.replace(/_/g, ' ')} in full.</p>}
    </section>
  );
}
