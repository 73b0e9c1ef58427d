// The "Billing" section: its pages and their addresses under /dashboard/billing.
import { Route, Routes } from 'react-router';
import { BillingPage } from '../pages/billing/BillingPage.tsx';

export function BillingSection() {
  return (
    <Routes>
      <Route index element={<BillingPage />} />
    </Routes>
  );
}
