// The "Requests" section: its pages and their addresses under /dashboard/requests.
import { Route, Routes } from 'react-router';
import { RequestPage } from '../pages/requests/RequestDetail.tsx';
import { RequestsPage } from '../pages/requests/RequestsList.tsx';

export function RequestsSection() {
  return (
    <Routes>
      <Route index element={<RequestsPage />} />
      <Route path=":requestId" element={<RequestPage />} />
    </Routes>
  );
}
