// The "Monitors" section: its pages and their addresses under /dashboard/monitors.
import { Route, Routes } from 'react-router';
import { MonitorListPage } from '../pages/monitors/MonitorList.tsx';
import { MonitorPage } from '../pages/monitors/MonitorPage.tsx';
import { NewMonitorPage } from '../pages/monitors/NewMonitor.tsx';

export function MonitorsSection() {
  return (
    <Routes>
      <Route index element={<MonitorListPage />} />
      <Route path="new" element={<NewMonitorPage />} />
      <Route path=":monitorId" element={<MonitorPage />} />
    </Routes>
  );
}
