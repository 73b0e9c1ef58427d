// Which handler ingests which kind of item.
import type { ItemKind } from './classify.ts';
import type { Handler } from './handlers.ts';
import { currentReportHandler, foreignReportHandler, offeringHandler, periodicReportHandler, proxyHandler } from './kinds/documents.ts';
import { formHandler } from './kinds/forms.ts';
import { fundReportHandler } from './kinds/fundReports.ts';
import { factorReturnsHandler, macroSeriesHandler, marketPricesHandler } from './kinds/market.ts';
import { edgarIndexHandler, submissionsHandler, tickersExchangeHandler, tickersHandler } from './kinds/reference.ts';
import { companyFactsHandler, xbrlInstanceHandler } from './kinds/xbrl.ts';
import { parseForm13f } from './parsers/ownership/form13f.ts';
import { parseForm144 } from './parsers/ownership/form144.ts';
import { parseFormC } from './parsers/forms/formC.ts';
import { parseFormD } from './parsers/forms/formD.ts';
import { parseNcen } from './parsers/funds/ncen.ts';
import { parseNport } from './parsers/funds/nport.ts';
import { parseNpx } from './parsers/funds/npx.ts';
import { parseOwnership } from './parsers/ownership/insiderForms.ts';
import { parseSchedule13 } from './parsers/ownership/schedule13.ts';

export const handlers: Partial<Record<ItemKind, Handler<unknown>>> = {
  company_tickers: tickersHandler,
  company_tickers_exchange: tickersExchangeHandler,
  submissions: submissionsHandler,
  edgar_index: edgarIndexHandler,
  companyfacts: companyFactsHandler,
  xbrl_instance: xbrlInstanceHandler,
  periodic_report: periodicReportHandler,
  current_report: currentReportHandler,
  foreign_report: foreignReportHandler,
  offering: offeringHandler,
  proxy: proxyHandler,
  fund_report: fundReportHandler,
  form_d: formHandler(parseFormD),
  form_144: formHandler(parseForm144),
  form_c: formHandler(parseFormC),
  schedule_13: formHandler(parseSchedule13),
  form_npx: formHandler(parseNpx),
  form_13f: formHandler(parseForm13f),
  ownership: formHandler(parseOwnership),
  form_ncen: formHandler(parseNcen),
  form_nport: formHandler(parseNport),
  market_prices: marketPricesHandler,
  factor_returns: factorReturnsHandler,
  macro_series: macroSeriesHandler,
};
