// The research side: "Search" (/dashboard/search?q=) and the company page
// (/dashboard/companies/{cik}, its tabs at ?tab=), one chunk loaded when either is first opened.
import { Route, Routes } from 'react-router';
import { CompanyPage } from '../pages/research/Company.tsx';
import { SearchPage } from '../pages/research/Search.tsx';

export function SearchSection() {
  return (
    <Routes>
      <Route index element={<SearchPage />} />
    </Routes>
  );
}

export function CompaniesSection() {
  return (
    <Routes>
      <Route index element={<SearchPage />} />
      <Route path=":cik" element={<CompanyPage />} />
    </Routes>
  );
}
