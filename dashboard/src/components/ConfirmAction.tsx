// The second step of a destructive action: the question in words, the action named on its button,
// Cancel beside it, and what went wrong if the action was refused. One shape for every page.
import type { ReactNode } from 'react';
import { ProblemNotice } from './States.tsx';

interface ConfirmActionProps {
  /** the group's accessible name, e.g. "Revoke ci-deploy" */
  label: string;
  /** the question, with what is lost */
  children: ReactNode;
  /** the confirming button's text, e.g. "Revoke key" */
  action: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  error?: unknown;
  /** what was being done, before the error's message ("Revoking") */
  errorContext: string;
}

export function ConfirmAction({ label, children, action, busy, onConfirm, onCancel, error, errorContext }: ConfirmActionProps) {
  return (
    <div className="confirm" role="group" aria-label={label}>
      <p>{children}</p>
      <div className="actions">
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {action}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error ? <ProblemNotice error={error} context={errorContext} /> : null}
    </div>
  );
}
