// A new secret (an API key's, a webhook endpoint's signing secret), shown this once: a copy button,
// and a warning that it cannot be shown again, with what to do should it be lost.
import { useId, useState, type ReactNode } from 'react';

const keyAdvice = 'The service keeps only a hash of it. Store it in your secret manager; if it is lost, create another key and revoke this one.';

export function SecretOnce({ secret, name, advice = keyAdvice }: { secret: string; name: string; advice?: ReactNode }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const labelId = useId();
  const fieldId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="secret" aria-labelledby={labelId}>
      <h2 id={labelId}>Copy the secret of “{name}” now</h2>
      <p className="warning">
        <strong>This is the only time it is shown.</strong> {advice}
      </p>
      <label htmlFor={fieldId}>Secret</label>
      <div className="secret-row">
        <input id={fieldId} className="secret-value" readOnly value={secret} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="muted" role="status">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'The browser did not allow copying: select the secret and copy it yourself.' : ''}
      </p>
    </section>
  );
}
