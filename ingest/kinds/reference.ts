// The SEC's own indexes: ticker maps, submissions files (entity + filings), daily/full index files.
import { parseEdgarIndex } from '../parsers/edgar/indexFiles.ts';
import { parseSubmissions } from '../parsers/edgar/submissions.ts';
import { parseCompanyTickers, parseCompanyTickersExchange } from '../parsers/edgar/tickers.ts';
import { handler } from '../handlers.ts';
import { padCik } from '../../core/rows.ts';
import { insertRows, type Columns } from '../../prisma/unnestInsert.ts';
import { ensureEntities, upsertEntity } from '../load/entities.ts';
import { indexEvents, writeIndexEvents } from '../load/events.ts';
import { upsertFilings } from '../load/filings.ts';

const tickerColumns: Columns<{ ticker: string; cik: string; source: string; name: string; exchange: string | null }> = [
  ['ticker', 'text', (t) => t.ticker],
  ['cik', 'text', (t) => t.cik],
  ['source', 'text', (t) => t.source],
  ['name', 'text', (t) => t.name],
  ['exchange', 'text', (t) => t.exchange],
];

/** Each ticker map is a snapshot: the newest one of a map replaces that map's rows, not the other's. */
function tickerHandler(source: string, parse: (json: string) => { cik: string; ticker: string; name: string; exchange: string | null }[]) {
  return handler({
    parse: ({ text }) => parse(text),
    async load(tx, rows) {
      const byTicker = new Map(rows.map((r) => [r.ticker.toUpperCase(), { ...r, cik: padCik(r.cik), ticker: r.ticker.toUpperCase() }]));
      const tickers = [...byTicker.values()];
      await ensureEntities(tx, tickers.map((t) => ({ cik: t.cik, name: t.name })));
      await tx.ticker.deleteMany({ where: { source } });
      await insertRows(tx, 'Ticker', tickerColumns, tickers.map((t) => ({ ...t, source })), { batch: 2000 });
      return { records: tickers.length, events: [] };
    },
  });
}

export const tickersHandler = tickerHandler('company_tickers', parseCompanyTickers);
export const tickersExchangeHandler = tickerHandler('company_tickers_exchange', parseCompanyTickersExchange);

export const submissionsHandler = handler({
  parse: ({ text, name }) => {
    const page = parseSubmissions(text, name);
    const filings = page.filings.map(({ filingDate, isXBRL, isInlineXBRL, ...f }) => ({ ...f, filedAt: filingDate, isXbrl: isXBRL, isInlineXbrl: isInlineXBRL }));
    return { entity: page.entity, filings, cikFromName: name.match(/CIK(\d{10})/)?.[1] ?? null };
  },
  async load(tx, parsed, { key }) {
    let records = 0;
    const cik = parsed.entity?.cik ?? parsed.cikFromName;
    if (parsed.entity) {
      const e = parsed.entity;
      records += await upsertEntity(tx, {
        cik: e.cik,
        name: e.name,
        kind: e.insiderTransactionForOwnerExists && !e.insiderTransactionForIssuerExists && !e.tickers.length ? 'insider' : 'issuer',
        entityType: e.entityType,
        sic: e.sic,
        sicDescription: e.sicDescription,
        stateOfIncorporation: e.stateOfIncorporation,
        fiscalYearEnd: e.fiscalYearEnd,
        tickers: e.tickers,
        exchanges: e.exchanges.filter((x): x is string => x !== null),
        formerNames: e.formerNames,
        hasSubmissions: true,
      });
    } else if (cik) {
      await ensureEntities(tx, [{ cik, name: null }]);
    }
    const tickers = parsed.entity ? new Map([[padCik(parsed.entity.cik), parsed.entity.tickers]]) : new Map<string, string[]>();
    const filings = await upsertFilings(tx, parsed.filings, tickers);
    records += filings.records;
    records += await writeIndexEvents(tx, parsed.filings.flatMap(indexEvents), key);
    return { records, events: filings.events };
  },
});

export const edgarIndexHandler = handler({
  parse: ({ text, name }) => parseEdgarIndex(text, name),
  async load(tx, parsed) {
    await ensureEntities(tx, parsed.rows.map((r) => ({ cik: r.cik, name: r.companyName })));
    const filings = await upsertFilings(
      tx,
      parsed.rows.filter((r) => r.accessionNumber).map((r) => ({ accessionNumber: r.accessionNumber!, cik: r.cik, form: r.form, filedAt: r.dateFiled })),
    );
    return { ...filings, warnings: parsed.badLines.map((b) => `line ${b.line} left out: ${b.reason}`) };
  },
});
