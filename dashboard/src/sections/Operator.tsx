// The "Operator" section: its pages and their addresses under /dashboard/operator. The header
// links here for operators only; anyone else who comes by the address sees the service's refusal.
import { Route, Routes } from 'react-router';
import { IngestFailuresPage, IngestRunsPage } from '../pages/operator/Ingest.tsx';
import { OperatorOrganizationPage } from '../pages/operator/OrganizationPage.tsx';
import { OperatorOrganizationsPage } from '../pages/operator/Organizations.tsx';

export function OperatorSection() {
  return (
    <Routes>
      <Route index element={<OperatorOrganizationsPage />} />
      <Route path="organizations/:orgId" element={<OperatorOrganizationPage />} />
      <Route path="ingest-runs" element={<IngestRunsPage />} />
      <Route path="ingest-failures" element={<IngestFailuresPage />} />
    </Routes>
  );
}
