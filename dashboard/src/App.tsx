// Pages and their addresses: every page, and every filter on it, is a URL under /dashboard that
// can be shared. Signed-in pages share the header; without a session they send you to "Sign in"
// and back to where you were after.
import { lazy, Suspense, useEffect, useRef, type ComponentType } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { useQuery } from 'urql';
import { BareHeader, Header } from './components/Header.tsx';
import { Loading, ProblemNotice, useTitle } from './components/States.tsx';
import { graphql } from './gql';
import { ApiKeysPage } from './pages/ApiKeys.tsx';
import { CreateKeyPage } from './pages/CreateKey.tsx';
import { OverviewPage } from './pages/Overview.tsx';
import { RotateKeyPage } from './pages/RotateKey.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { describeProblem } from './problems.ts';
import { ViewerContext } from './viewer.tsx';

// Each section beyond the first pages is its own chunk, loaded when first opened: the first load
// stays the sign-in, the Overview and the keys.
const section = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(async () => ({ default: (await load())[name] }));
const MembersSection = section(() => import('./sections/Members.tsx'), 'MembersSection');
const InvitationSection = section(() => import('./sections/Invitation.tsx'), 'InvitationSection');
const BillingSection = section(() => import('./sections/Billing.tsx'), 'BillingSection');
const WebhooksSection = section(() => import('./sections/Webhooks.tsx'), 'WebhooksSection');
const StreamsSection = section(() => import('./sections/Streams.tsx'), 'StreamsSection');
const MonitorsSection = section(() => import('./sections/Monitors.tsx'), 'MonitorsSection');
const RequestsSection = section(() => import('./sections/Requests.tsx'), 'RequestsSection');
const AuditLogSection = section(() => import('./sections/AuditLog.tsx'), 'AuditLogSection');
const AlertsSection = section(() => import('./sections/Alerts.tsx'), 'AlertsSection');
const OperatorSection = section(() => import('./sections/Operator.tsx'), 'OperatorSection');
const FilingsSection = section(() => import('./sections/Filings.tsx'), 'FilingsSection');
const SearchSection = section(() => import('./sections/Research.tsx'), 'SearchSection');
const CompaniesSection = section(() => import('./sections/Research.tsx'), 'CompaniesSection');
const PortfolioSection = section(() => import('./sections/Portfolio.tsx'), 'PortfolioSection');

const ShellQuery = graphql(`
  query Shell {
    me {
      kind
      role
      operator
      ...HeaderMe
    }
  }
`);

function SignedInLayout() {
  const [shell, refetch] = useQuery({ query: ShellQuery });
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a move to another page, focus goes to the new page's content, as a page load would.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [location.pathname]);

  if (shell.error && describeProblem(shell.error).signedOut) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`} replace />;
  }
  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      {shell.data ? <Header me={shell.data.me} /> : <BareHeader />}
      <main id="main" ref={main} tabIndex={-1}>
        {shell.fetching && !shell.data ? <Loading what="your account" /> : null}
        {shell.error && !shell.data ? <ProblemNotice error={shell.error} retry={() => refetch({ requestPolicy: 'network-only' })} /> : null}
        {shell.data ? (
          <ViewerContext.Provider value={{ role: shell.data.me.role, operator: shell.data.me.operator }}>
            <Suspense fallback={<Loading what="the page" />}>
              <Outlet />
            </Suspense>
          </ViewerContext.Provider>
        ) : null}
      </main>
    </>
  );
}

function NotFoundPage() {
  useTitle('Not found');
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no dashboard page at this address.</p>
    </>
  );
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route element={<SignedInLayout />}>
        <Route index element={<OverviewPage />} />
        <Route path="keys" element={<ApiKeysPage />} />
        <Route path="keys/new" element={<CreateKeyPage />} />
        <Route path="keys/:keyId/rotate" element={<RotateKeyPage />} />
        <Route path="members/*" element={<MembersSection />} />
        <Route path="invitations/*" element={<InvitationSection />} />
        <Route path="billing/*" element={<BillingSection />} />
        <Route path="webhooks/*" element={<WebhooksSection />} />
        <Route path="streams/*" element={<StreamsSection />} />
        <Route path="monitors/*" element={<MonitorsSection />} />
        <Route path="requests/*" element={<RequestsSection />} />
        <Route path="audit-log/*" element={<AuditLogSection />} />
        <Route path="alerts/*" element={<AlertsSection />} />
        <Route path="operator/*" element={<OperatorSection />} />
        <Route path="filings/*" element={<FilingsSection />} />
        <Route path="search/*" element={<SearchSection />} />
        <Route path="companies/*" element={<CompaniesSection />} />
        <Route path="portfolio/*" element={<PortfolioSection />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
