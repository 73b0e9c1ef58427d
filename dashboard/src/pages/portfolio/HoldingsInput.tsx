// The pasted holdings and, line by line, how each was read: the holding, or why it cannot be
// (from the page's own reading, or from the service's refusal naming `holdings[i]`).
import { useId } from 'react';
import { ScrollingTable } from '../../components/States.tsx';
import type { ReadHoldings } from './holdings.ts';

const amount = (h: { weight?: number; shares?: number }) => (h.weight !== undefined ? `weight ${h.weight}` : `${h.shares} shares`);

export function HoldingsInput(props: { text: string; onChange: (text: string) => void; read: ReadHoldings; serviceProblems: Map<number, string>; showProblems: boolean }) {
  const { read, serviceProblems, showProblems } = props;
  const fieldId = useId();
  const helpId = useId();
  const problemsId = useId();
  const bad = read.lines.filter((l) => l.error).length;
  const invalid = showProblems && (bad > 0 || read.problem !== null);
  return (
    <div className="field portfolio-holdings">
      <label htmlFor={fieldId}>Holdings</label>
      <textarea
        id={fieldId}
        rows={8}
        value={props.text}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={`${helpId}${invalid ? ` ${problemsId}` : ''}`}
        aria-invalid={invalid}
        spellCheck={false}
        autoComplete="off"
        placeholder={'AAPL 0.4\nMSFT 0.35\nJPM 0.25'}
      />
      <p id={helpId} className="muted">
        One holding a line: <code>TICKER weight</code> (a fraction or a percentage, scaled to add up to 1), <code>TICKER,shares</code>, or CSV with a header naming{' '}
        <code>ticker</code> and <code>weight</code> or <code>shares</code>. Every holding the same way; a ticker needs prices held by the service.
      </p>
      {invalid ? (
        <p id={problemsId} className="problem portfolio-line-summary" role="alert">
          {read.problem ?? `${bad} line${bad === 1 ? '' : 's'} cannot be used, as marked below; nothing was sent.`}
        </p>
      ) : null}
      {read.lines.length ? (
        <ScrollingTable label="Holdings as read">
          <table className="portfolio-lines">
            <caption>Holdings as read</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Holding</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {read.lines.map((l) => {
                const problem = l.error ?? serviceProblems.get(l.line) ?? null;
                return (
                  <tr key={l.line} className={problem ? 'portfolio-line-error' : undefined}>
                    <th scope="row">{l.line}</th>
                    <td>{l.holding ? `${l.holding.ticker}, ${amount(l.holding)}` : <code>{l.text}</code>}</td>
                    <td>{problem ?? ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      ) : null}
    </div>
  );
}
