// The payment processor's own card form (its Payment Element), for a payment or a saved card
// that the service has started (a client secret). The processor's script is loaded from its own
// origin, which the dashboard's Content-Security-Policy allows only when a publishable key is
// configured (server/dashboard.ts); the card details never touch this page. Whatever the form
// answers, credit or a saved card is recorded only when the processor's signed notice arrives.
import { useEffect, useRef, useState } from 'react';

const processorScript = 'https://js.stripe.com/v3/';

interface ProcessorElement {
  mount(target: HTMLElement): void;
  destroy(): void;
}
interface ProcessorElements {
  create(type: 'payment'): ProcessorElement;
}
interface ConfirmResult {
  error?: { message?: string };
}
interface Processor {
  elements(options: { clientSecret: string }): ProcessorElements;
  confirmPayment(options: { elements: ProcessorElements; redirect: 'if_required'; confirmParams: { return_url: string } }): Promise<ConfirmResult>;
  confirmSetup(options: { elements: ProcessorElements; redirect: 'if_required'; confirmParams: { return_url: string } }): Promise<ConfirmResult>;
}
type ProcessorFactory = (publishableKey: string) => Processor;

let loading: Promise<ProcessorFactory> | null = null;

/** The processor's script, once per page load. */
function loadProcessor(): Promise<ProcessorFactory> {
  loading ??= new Promise<ProcessorFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = processorScript;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: ProcessorFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('The payment processor\'s script loaded without its form.'));
    };
    script.onerror = () => reject(new Error('The payment processor\'s form could not be loaded.'));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export function ProcessorForm(props: { publishableKey: string; clientSecret: string; kind: 'payment' | 'setup'; submitLabel: string; onConfirmed: () => void }) {
  const target = useRef<HTMLDivElement>(null);
  const session = useRef<{ processor: Processor; elements: ProcessorElements } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'confirming' | 'failed'>('loading');
  const [message, setMessage] = useState('');

  useEffect(() => {
    let element: ProcessorElement | null = null;
    let gone = false;
    loadProcessor()
      .then((factory) => {
        if (gone || !target.current) return;
        const processor = factory(props.publishableKey);
        const elements = processor.elements({ clientSecret: props.clientSecret });
        element = elements.create('payment');
        element.mount(target.current);
        session.current = { processor, elements };
        setState('ready');
      })
      .catch((error: unknown) => {
        if (gone) return;
        setState('failed');
        setMessage(error instanceof Error ? error.message : String(error));
      });
    return () => {
      gone = true;
      element?.destroy();
      session.current = null;
    };
  }, [props.publishableKey, props.clientSecret]);

  const confirm = async () => {
    const current = session.current;
    if (!current) return;
    setState('confirming');
    setMessage('');
    const options = { elements: current.elements, redirect: 'if_required' as const, confirmParams: { return_url: location.href } };
    const result = props.kind === 'payment' ? await current.processor.confirmPayment(options) : await current.processor.confirmSetup(options);
    if (result.error) {
      setState('ready');
      setMessage(result.error.message ?? 'The payment processor refused the card.');
      return;
    }
    props.onConfirmed();
  };

  return (
    <div className="processor-form">
      <div ref={target} className="processor-element" />
      {state === 'loading' ? (
        <p className="state state-loading" role="status">
          Loading the payment processor's card form…
        </p>
      ) : null}
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
      {state !== 'failed' ? (
        <button type="button" className="primary" disabled={state !== 'ready'} onClick={() => void confirm()}>
          {props.submitLabel}
        </button>
      ) : null}
    </div>
  );
}
