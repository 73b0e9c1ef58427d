// The "Filings" section: the reader and its addresses under /dashboard/filings.
import { Route, Routes } from 'react-router';
import { OpenFilingPage } from '../pages/filings/OpenFiling.tsx';
import { ReaderPage } from '../pages/filings/ReaderPage.tsx';

export function FilingsSection() {
  return (
    <Routes>
      <Route index element={<OpenFilingPage />} />
      <Route path=":accessionNumber" element={<ReaderPage />} />
    </Routes>
  );
}
