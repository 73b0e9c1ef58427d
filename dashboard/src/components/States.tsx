// The three states every page has besides its content: loading, empty and failed.
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { describeProblem } from '../problems.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state state-loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

/** The service's message and what to do about it; never a blank page. */
export function ProblemNotice({ error, retry, context }: { error: unknown; retry?: () => void; context?: string }) {
  const problem = describeProblem(error);
  return (
    <div className="problem" role="alert">
      <p className="problem-title">
        <strong>
          {context ? `${context}: ` : ''}
          {problem.title}
        </strong>
        {problem.status ? <span className="problem-status"> ({problem.status})</span> : null}
      </p>
      <p className="problem-message">{problem.message}</p>
      <p className="problem-action">{problem.action}</p>
      {problem.requestId ? (
        <p className="problem-request">
          Request <code>{problem.requestId}</code>
        </p>
      ) : null}
      <div className="actions">
        {problem.signedOut ? <Link to="/sign-in">Sign in again</Link> : null}
        {retry && !problem.signedOut ? (
          <button type="button" onClick={retry}>
            Try again
          </button>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A table that may be wider than the screen: it scrolls sideways on its own, and can be focused
 * and scrolled with the keyboard.
 */
export function ScrollingTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

/** The page's name in the browser's title bar and history. */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Investor Data Service`;
  }, [title]);
}
