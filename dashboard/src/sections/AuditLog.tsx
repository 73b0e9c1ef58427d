// The "Audit log" section: its pages and their addresses under /dashboard/audit-log.
import { Route, Routes } from 'react-router';
import { AuditLogPage } from '../pages/auditLog/AuditLog.tsx';

export function AuditLogSection() {
  return (
    <Routes>
      <Route index element={<AuditLogPage />} />
    </Routes>
  );
}
