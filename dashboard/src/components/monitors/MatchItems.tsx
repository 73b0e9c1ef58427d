// Records as a monitor's read lists them (a filing, a form, an event or a fact): the company, what
// the record is, when it was filed, and its accession number linked to the SEC's copy.
import { ScrollingTable } from '../States.tsx';

type Item = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
const first = (item: Item, keys: string[]) => {
  for (const key of keys) {
    const value = text(item[key]);
    if (value) return value;
  }
  return null;
};

function what(item: Item): string {
  const kind = first(item, ['form', 'formType', 'eventType', 'type', 'tag']) ?? 'Record';
  const value = text(item.value);
  return value !== null ? `${kind}: ${value}${text(item.unit) ? ` ${text(item.unit)}` : ''}` : kind;
}

function link(item: Item): string | null {
  const url = text(item.citationUrl) ?? text(item.url);
  return url && /^https?:\/\//.test(url) ? url : null;
}

export function MatchItems({ items, label }: { items: unknown[]; label: string }) {
  const rows = items.filter((i): i is Item => typeof i === 'object' && i !== null);
  return (
    <ScrollingTable label={label}>
      <table className="matches">
        <thead>
          <tr>
            <th scope="col">Company</th>
            <th scope="col">Record</th>
            <th scope="col">Filed</th>
            <th scope="col">Accession number</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((item, i) => {
            const accession = first(item, ['accessionNumber', 'accession']);
            const url = link(item);
            return (
              <tr key={`${accession ?? ''}-${text(item.id) ?? i}`}>
                <th scope="row">{first(item, ['companyName', 'entityName', 'issuerName', 'filerName', 'name', 'cik']) ?? '—'}</th>
                <td>{what(item)}</td>
                <td>{first(item, ['filedAt', 'filingDate', 'filed', 'periodEnd', 'date']) ?? '—'}</td>
                <td>{accession ? url ? <a href={url}>{accession}</a> : <code>{accession}</code> : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollingTable>
  );
}
