// Links between the pages of a cursor-paged list (the graph's pageInfo), keeping the page's other
// query parameters (filters) as they are. Nothing is shown when the list fits on one page.
import { Link, useLocation } from 'react-router';

interface PagerProps {
  /** the nav's accessible name, e.g. "Pages of keys" */
  label: string;
  /** the cursor this page was opened at (null on the first page) */
  after: string | null;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null } | null | undefined;
  /** the link texts: back to the first page, and on to the next */
  first: string;
  next: string;
  /** the query parameter that holds the cursor */
  param?: string;
}

export function Pager({ label, after, pageInfo, first, next, param = 'after' }: PagerProps) {
  const location = useLocation();
  const nextCursor = pageInfo?.hasNextPage ? (pageInfo.endCursor ?? null) : null;
  if (!after && !nextCursor) return null;
  const linkTo = (cursor: string | null) => {
    const params = new URLSearchParams(location.search);
    if (cursor) params.set(param, cursor);
    else params.delete(param);
    const query = params.toString();
    return query ? `${location.pathname}?${query}` : location.pathname;
  };
  return (
    <nav className="pager" aria-label={label}>
      {after ? <Link to={linkTo(null)}>{first}</Link> : null}
      {nextCursor ? <Link to={linkTo(nextCursor)}>{next}</Link> : null}
    </nav>
  );
}
