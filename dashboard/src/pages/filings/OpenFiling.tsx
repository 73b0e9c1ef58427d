// The reader's door: open a filing by its accession number (the reader's address is
// /filings/{accessionNumber}, which a cited value links to directly).
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTitle } from '../../components/States.tsx';

const accessionPattern = /^\d{10}-\d{2}-\d{6}$/;

export function OpenFilingPage() {
  useTitle('Filings');
  const navigate = useNavigate();
  const [accession, setAccession] = useState('');
  const [problem, setProblem] = useState('');
  const field = useId();
  const hint = useId();
  const open = (event: FormEvent) => {
    event.preventDefault();
    const value = accession.trim();
    if (!accessionPattern.test(value)) {
      setProblem('An accession number reads like 0000320193-24-000123: ten digits, two, then six.');
      return;
    }
    navigate(`/filings/${value}`);
  };
  return (
    <>
      <h1>Filings</h1>
      <p>Read a filing's document as the service renders it: sanitized HTML, Markdown or text, with its sections.</p>
      <form onSubmit={open} noValidate>
        <div className="field">
          <label htmlFor={field}>Accession number</label>
          <input id={field} value={accession} onChange={(e) => setAccession(e.target.value)} autoComplete="off" aria-describedby={hint} aria-invalid={problem ? true : undefined} />
          <p id={hint} className={problem ? 'field-error' : 'muted'}>
            {problem || 'For example 0000320193-24-000123'}
          </p>
        </div>
        <div className="actions">
          <button type="submit">Open filing</button>
        </div>
      </form>
    </>
  );
}
