// The Operator section's own pages. Everyone else opening them sees the service's own 403 (its
// ProblemNotice says what the refusal means).
import { NavLink } from 'react-router';

export function OperatorNav() {
  return (
    <nav className="subnav" aria-label="Operator pages">
      <NavLink to="/operator" end>
        Organizations
      </NavLink>
      <NavLink to="/operator/ingest-runs">Ingest runs</NavLink>
      <NavLink to="/operator/ingest-failures">Ingest failures</NavLink>
    </nav>
  );
}

