// Pages and their addresses: every page, and every filter on it, is a URL under /dashboard that
// can be shared. Signed-in pages share the header; without a session they send you to "Sign in"
// and back to where you were after.
import { useEffect, useRef } from 'react';
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

const ShellQuery = graphql(`
  query Shell {
    me {
      kind
      role
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
          <ViewerContext.Provider value={{ role: shell.data.me.role }}>
            <Outlet />
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
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
