// The SEC's ticker maps: company_tickers.json ({"0":{"cik_str","ticker","title"}, ...}) and
// company_tickers_exchange.json ({"fields":["cik","name","ticker","exchange"],"data":[[...]]}).
// One row per ticker: a company with several share classes appears once per ticker.

export interface TickerRecord {
  /** 10 digits */
  cik: string;
  ticker: string;
  name: string;
  /** 'Nasdaq', 'NYSE', 'OTC', 'CBOE'; null where the map has none (company_tickers.json never has) */
  exchange: string | null;
}

export function parseCompanyTickers(json: string): TickerRecord[] {
  const doc = JSON.parse(json) as unknown;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('company_tickers.json: expected an object of {cik_str, ticker, title} entries');
  return Object.entries(doc as Record<string, unknown>).map(([key, entry]) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    return row(`company_tickers.json entry "${key}"`, e.cik_str, e.ticker, e.title, null);
  });
}

export function parseCompanyTickersExchange(json: string): TickerRecord[] {
  const doc = JSON.parse(json) as { fields?: unknown; data?: unknown };
  if (!Array.isArray(doc?.fields) || !Array.isArray(doc.data)) throw new Error('company_tickers_exchange.json: expected {"fields": [...], "data": [[...], ...]}');
  const fields = doc.fields as unknown[];
  // The column order is declared by `fields`, not fixed.
  const column = (name: string) => {
    const index = fields.indexOf(name);
    if (index < 0) throw new Error(`company_tickers_exchange.json: fields has no "${name}" column`);
    return index;
  };
  const [cik, name, ticker, exchange] = [column('cik'), column('name'), column('ticker'), column('exchange')];
  return doc.data.map((values, i) => {
    if (!Array.isArray(values)) throw new Error(`company_tickers_exchange.json data[${i}]: expected an array`);
    const place = values[exchange];
    return row(`company_tickers_exchange.json data[${i}]`, values[cik], values[ticker], values[name], typeof place === 'string' && place.trim() ? place.trim() : null);
  });
}

function row(where: string, cik: unknown, ticker: unknown, name: unknown, exchange: string | null): TickerRecord {
  const cikText = typeof cik === 'number' || typeof cik === 'string' ? String(cik).trim() : '';
  if (!/^\d{1,10}$/.test(cikText)) throw new Error(`${where}: invalid CIK ${JSON.stringify(cik)}`);
  if (typeof ticker !== 'string' || !ticker.trim()) throw new Error(`${where}: missing ticker`);
  if (typeof name !== 'string' || !name.trim()) throw new Error(`${where}: missing company name`);
  return { cik: cikText.padStart(10, '0'), ticker: ticker.trim(), name: name.trim(), exchange };
}
