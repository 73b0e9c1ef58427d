// Market data files: daily prices, Fama-French factor returns, FRED series. Each file is one
// MarketSource with its rows; junk lines are left out and become the item's warnings (status
// 'partial'), the way an EDGAR index's bad lines do. Missing values are data, not junk: they
// are stored as null and counted on the MarketSource.
import { handler } from '../handlers.ts';
import { dateSpan, factorLoad, loadFactorReturns, loadMacroSeries, loadPriceBars, saveMarketSource } from '../load/market.ts';
import { parseFamaFrench } from '../parsers/market/famaFrench.ts';
import { parseFred } from '../parsers/market/fred.ts';
import { parsePrices, type BadLine } from '../parsers/market/prices.ts';

const warningsOf = (badLines: BadLine[]) => badLines.map((b) => `line ${b.line} left out: ${b.reason} (${JSON.stringify(b.text.slice(0, 60))})`);

export const marketPricesHandler = handler({
  parse: ({ text, name }) => parsePrices(text, name),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadPriceBars(step, key, file);
    const span = dateSpan(file.bars.map((b) => b.date));
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'market_prices', fileName: name, subject: file.ticker, vintage: null, vintageNote: 'a price export states no vintage', rows: file.bars.length, span, missing: [], badLines: file.badLines, adjustment: file.adjustment }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});

export const factorReturnsHandler = handler({
  // packed where it is parsed: a daily file's values are too many to copy back from the parse thread as objects
  parse: ({ text, name }) => factorLoad(parseFamaFrench(text, name)),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadFactorReturns(step, key, file);
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'factor_returns', fileName: name, subject: file.dataset, vintage: file.vintage, vintageNote: file.vintageNote, rows: file.rows, span: file.span, missing: file.missing, badLines: file.badLines }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});

export const macroSeriesHandler = handler({
  parse: ({ text, name }) => parseFred(text, name),
  async loadInSteps(step, file, { key, name }) {
    const records = await loadMacroSeries(step, key, file);
    const span = dateSpan(file.observations.map((o) => o.date));
    await step((tx) => saveMarketSource(tx, { sourceKey: key, kind: 'macro_series', fileName: name, subject: file.seriesId, vintage: null, vintageNote: 'a FRED download states no vintage', rows: file.observations.length, span, missing: file.missing, badLines: file.badLines }));
    return { records, events: [], warnings: warningsOf(file.badLines) };
  },
});
