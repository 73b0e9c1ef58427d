// The Portfolio lab (/dashboard/portfolio) and a run reopened from its artifact
// (/dashboard/portfolio/artifacts/{id}), one chunk loaded when first opened.
import { Route, Routes } from 'react-router';
import { ArtifactPage } from '../pages/portfolio/ArtifactPage.tsx';
import { PortfolioLabPage } from '../pages/portfolio/PortfolioLab.tsx';

export function PortfolioSection() {
  return (
    <Routes>
      <Route index element={<PortfolioLabPage />} />
      <Route path="artifacts/:artifactId" element={<ArtifactPage />} />
    </Routes>
  );
}
