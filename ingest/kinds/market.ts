// Market data files: daily prices, Fama-French factor returns, FRED series. Each file is one
// MarketSource with its rows; junk lines are left out and become the item's warnings (status
// 'partial'), the way an EDGAR index's bad lines do. Missing values are data, not junk: they
// are stored as null and counted on the MarketSource.
import { handler } from '../handlers.ts';
import { loadFactorReturns, loadMacroSeries, loadPriceBars, saveMarketSource } from '../load/market.ts';
import { parseFamaFrench } from '../parsers/market/famaFrench.ts';
import { parseFred } from '../parsers/market/fred.ts';
import { parsePrices, type BadLine } from '../parsers/market/prices.ts';

const warningsOf = (badLines: BadLine[]) => badLines.map((b) => `line ${b.line} left out: ${b.reason} (${JSON.stringify(b.text.slice(0, 60))})`);

export const marketPricesHandler = handler({
  parse: ({ text, name }) => parsePrices(text, name),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadPriceBars(step, key, file);
    const dates = file.bars.map((b) => b.date);
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'market_prices', fileName: name, subject: file.ticker, vintage: null, vintageNote: 'a price export states no vintage', rows: file.bars.length, dates, missing: [], badLines: file.badLines, adjustment: file.adjustment }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});

export const factorReturnsHandler = handler({
  parse: ({ text, name }) => parseFamaFrench(text, name),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadFactorReturns(step, key, file);
    const dates = file.values.map((v) => v.date);
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'factor_returns', fileName: name, subject: file.dataset, vintage: file.vintage, vintageNote: file.vintageNote, rows: file.rows, dates, missing: file.missing, badLines: file.badLines }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});

export const macroSeriesHandler = handler({
  parse: ({ text, name }) => parseFred(text, name),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadMacroSeries(step, key, file);
    const dates = file.observations.map((o) => o.date);
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'macro_series', fileName: name, subject: file.seriesId, vintage: null, vintageNote: 'a FRED download states no vintage', rows: file.observations.length, dates, missing: file.missing, badLines: file.badLines }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});
