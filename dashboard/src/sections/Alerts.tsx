// The "Alerts" section: the organization's inbox of what needs a person, under /dashboard/alerts.
import { Route, Routes } from 'react-router';
import { AlertsPage } from '../pages/alerts/Alerts.tsx';

export function AlertsSection() {
  return (
    <Routes>
      <Route index element={<AlertsPage />} />
    </Routes>
  );
}
