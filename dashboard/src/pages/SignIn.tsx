// Sign in: with a code sent by email, with the configured OpenID provider ("Continue with …"), or
// with a one-time link (`?token=`, printed by the first start and by `ids sign-in-link`), which
// signs in as soon as the page opens. Afterwards the person lands where they were going (`?next=`).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { authApi, type SignInMethod } from '../auth.ts';
import { useClientControl } from '../client.tsx';
import { Loading, ProblemNotice, useTitle } from '../components/States.tsx';

/** Only a path of the dashboard itself: never another site, never `//host`. */
function safeNext(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.startsWith('/sign-in')) return '/';
  return value;
}

export function SignInPage() {
  useTitle('Sign in');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { reset } = useClientControl();
  const next = safeNext(params.get('next'));
  const token = params.get('token');

  const [methods, setMethods] = useState<SignInMethod[] | null>(null);
  const [methodsError, setMethodsError] = useState<unknown>(null);
  const [linkState, setLinkState] = useState<'idle' | 'checking'>(token ? 'checking' : 'idle');
  const [error, setError] = useState<unknown>(null);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), code: useId(), remember: useId(), heading: useId() };

  const signedIn = () => {
    reset();
    navigate(next, { replace: true });
  };

  // A one-time link: used once, at once; the token leaves the address bar whatever the outcome.
  const linkUsed = useRef(false);
  useEffect(() => {
    if (!token || linkUsed.current) return;
    linkUsed.current = true;
    setParams(next === '/' ? {} : { next }, { replace: true });
    authApi
      .verifyLink(token)
      .then(signedIn)
      .catch((e) => {
        setError(e);
        setLinkState('idle');
      });
  }, [token]);

  const loadMethods = () => {
    setMethodsError(null);
    authApi
      .providers()
      .then((answer) => setMethods(answer.methods))
      .catch(setMethodsError);
  };
  useEffect(loadMethods, []);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await authApi.requestCode(email.trim());
      setStep('code');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await authApi.verifyCode(email.trim(), code.trim(), rememberMe);
      signedIn();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  const emailMethod = methods?.find((m) => m.method === 'email_code');
  const oidc = methods?.find((m): m is Extract<SignInMethod, { method: 'oidc' }> => m.method === 'oidc');
  const link = methods?.find((m): m is Extract<SignInMethod, { method: 'link' }> => m.method === 'link');
  const oidcHref = oidc ? `${oidc.start}?${new URLSearchParams({ return_to: `/dashboard${next === '/' ? '' : next}`, remember_me: String(rememberMe) })}` : '';

  return (
    <main id="main" className="sign-in">
      <section className="sign-in-box" aria-labelledby={ids.heading}>
        <p className="brand">Investor Data Service</p>
        <h1 id={ids.heading}>Sign in</h1>
        {linkState === 'checking' ? <Loading what="your sign-in link" /> : null}
        {error ? <ProblemNotice error={error} /> : null}
        {methodsError ? <ProblemNotice error={methodsError} context="Ways to sign in" retry={loadMethods} /> : null}
        {!methods && !methodsError && linkState !== 'checking' ? <Loading what="the ways to sign in" /> : null}
        {methods && linkState !== 'checking' ? (
          <>
            {emailMethod && step === 'email' ? (
              <form onSubmit={(e) => void sendCode(e)}>
                <div className="field">
                  <label htmlFor={ids.email}>Email</label>
                  <input id={ids.email} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
                </div>
                <button type="submit" className="primary" disabled={busy || !email.trim()}>
                  Email me a code
                </button>
              </form>
            ) : null}
            {emailMethod && step === 'code' ? (
              <form onSubmit={(e) => void verify(e)}>
                <p>
                  We sent a six-digit code to <strong>{email}</strong>. It works for 10 minutes.
                </p>
                <div className="field">
                  <label htmlFor={ids.code}>Code</label>
                  <input
                    id={ids.code}
                    ref={codeInput}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    pattern="[0-9]*"
                    maxLength={6}
                    required
                    value={code}
                    onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
                  />
                </div>
                <label className="check" htmlFor={ids.remember}>
                  <input id={ids.remember} type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
                  Keep me signed in for 90 days
                </label>
                <div className="actions">
                  <button type="submit" className="primary" disabled={busy || code.length !== 6}>
                    Sign in
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      setStep('email');
                      setCode('');
                      setError(null);
                    }}
                  >
                    Use another email
                  </button>
                </div>
              </form>
            ) : null}
            {oidc ? (
              <p className="or">
                <a className="button" href={oidcHref}>
                  {oidc.label.startsWith('Continue with') ? oidc.label : `Continue with ${oidc.provider.name}`}
                </a>
              </p>
            ) : null}
            {!emailMethod && !oidc ? (
              <p>This service sends no email. Ask its operator for a one-time sign-in link{link ? <>: <code className="wrap">{link.command}</code></> : null}.</p>
            ) : link ? (
              <p className="muted">
                No email? The operator can print a one-time link: <code className="wrap">{link.command}</code>
              </p>
            ) : null}
          </>
        ) : null}
      </section>
    </main>
  );
}
