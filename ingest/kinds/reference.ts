// The SEC's own indexes: ticker maps, submissions files (entity + filings), daily/full index files.
import { parseEdgarIndex } from '../parsers/edgar/indexFiles.ts';
import { parseSubmissions } from '../parsers/edgar/submissions.ts';
import { parseCompanyTickers, parseCompanyTickersExchange } from '../parsers/edgar/tickers.ts';
import { handler } from '../handlers.ts';
import { chunks, padCik } from '../../core/rows.ts';
import { type Columns } from '../../prisma/unnestInsert.ts';
import { writeFileRows } from '../load/fileRows.ts';
import { ensureEntities, upsertEntity } from '../load/entities.ts';
import { indexEvents, writeIndexEvents } from '../load/events.ts';
import { filingRow, upsertFilings } from '../load/filings.ts';

const tickerColumns: Columns<{ ticker: string; cik: string; source: string; name: string; exchange: string | null }> = [
  ['ticker', 'text', (t) => t.ticker],
  ['cik', 'text', (t) => t.cik],
  ['source', 'text', (t) => t.source],
  ['name', 'text', (t) => t.name],
  ['exchange', 'text', (t) => t.exchange],
];

/** Entities a step makes sure of (a ticker map names ten thousand), and index events a step writes. */
const entitiesPerStep = 500;
const eventsPerStep = 300;

/** Each ticker map is a snapshot: the newest one of a map replaces that map's rows, not the other's. */
function tickerHandler(source: string, parse: (json: string) => { cik: string; ticker: string; name: string; exchange: string | null }[]) {
  return handler({
    parse: ({ text }) => parse(text),
    async loadInSteps(step, rows) {
      const byTicker = new Map(rows.map((r) => [r.ticker.toUpperCase(), { ...r, cik: padCik(r.cik), ticker: r.ticker.toUpperCase() }]));
      const tickers = [...byTicker.values()];
      for (const chunk of chunks(tickers, entitiesPerStep)) await step((tx) => ensureEntities(tx, chunk.map((t) => ({ cik: t.cik, name: t.name }))));
      await writeFileRows(step, 'Ticker', tickerColumns, tickers.map((t) => ({ ...t, source })), { column: 'source', value: source });
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
    for (const f of filings) filingRow(f); // a bad date refuses the file before its entity is written
    return { entity: page.entity, filings, cikFromName: name.match(/CIK(\d{10})/)?.[1] ?? null };
  },
  // the entity, then its filings a chunk a step, then the events the index states
  async loadInSteps(step, parsed, { key }) {
    let records = 0;
    const cik = parsed.entity?.cik ?? parsed.cikFromName;
    const e = parsed.entity;
    if (e) {
      records += await step((tx) =>
        upsertEntity(tx, {
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
        }),
      );
    } else if (cik) {
      await step((tx) => ensureEntities(tx, [{ cik, name: null }]));
    }
    const tickers = e ? new Map([[padCik(e.cik), e.tickers]]) : new Map<string, string[]>();
    const filings = await upsertFilings(step, parsed.filings, tickers);
    records += filings.records;
    for (const events of chunks(parsed.filings.flatMap(indexEvents), eventsPerStep)) records += await step((tx) => writeIndexEvents(tx, events, key));
    return { records, events: filings.events };
  },
});

export const edgarIndexHandler = handler({
  parse: ({ text, name }) => parseEdgarIndex(text, name),
  async loadInSteps(step, parsed) {
    await step((tx) => ensureEntities(tx, parsed.rows.map((r) => ({ cik: r.cik, name: r.companyName }))));
    const filings = await upsertFilings(
      step,
      parsed.rows.filter((r) => r.accessionNumber).map((r) => ({ accessionNumber: r.accessionNumber!, cik: r.cik, form: r.form, filedAt: r.dateFiled })),
    );
    return { ...filings, warnings: parsed.badLines.map((b) => `line ${b.line} left out: ${b.reason}`) };
  },
});
