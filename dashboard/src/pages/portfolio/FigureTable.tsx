// A figure's numbers as a table: a header row, then one row per label (the row's header cell)
// with its values, scrolling sideways on its own when wider than the screen.
import { Fragment } from 'react';
import { ScrollingTable } from '../../components/States.tsx';

export interface FigureRow {
  label: string;
  cells: string[];
}

export function FigureTable({ caption, columns, rows, className }: { caption: string; columns: string[]; rows: FigureRow[]; className?: string }) {
  return (
    <ScrollingTable label={caption}>
      <table className={`portfolio-table${className ? ` ${className}` : ''}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th scope="col" key={c} className={i ? 'num' : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              {r.cells.map((c, i) => (
                <td key={i} className="num">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

/** Label and value pairs above a run's figures: its window, model and headline numbers. */
export function Summary({ pairs }: { pairs: [string, string][] }) {
  return (
    <dl className="pairs portfolio-summary">
      {pairs.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
