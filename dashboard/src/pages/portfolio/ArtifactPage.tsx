// A run reopened from its artifact (/dashboard/portfolio/artifacts/{id}): its figures and sources
// as stored, and its downloads.
import { Link, useParams } from 'react-router';
import { useTitle } from '../../components/States.tsx';
import { ArtifactView } from './ArtifactView.tsx';

export function ArtifactPage() {
  const { artifactId = '' } = useParams();
  useTitle(`Run ${artifactId}`);
  return (
    <>
      <p className="crumbs">
        <Link to="/portfolio">Portfolio lab</Link>
      </p>
      <ArtifactView id={artifactId} heading="h1" linked={false} />
    </>
  );
}
