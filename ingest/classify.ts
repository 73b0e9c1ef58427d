// Which parser an item needs, from where it sits: the layout of a corpus folder (see
// ../shared/data/MANIFEST.md) or the SEC's URL paths. Market files are told apart by folder:
// prices, Fama-French factors and FRED macro series each have their own parser and tables.

export type ItemKind =
  | 'company_tickers'
  | 'company_tickers_exchange'
  | 'submissions'
  | 'companyfacts'
  | 'xbrl_instance'
  | 'edgar_index'
  | 'periodic_report'
  | 'current_report'
  | 'foreign_report'
  | 'offering'
  | 'proxy'
  | 'fund_report'
  | 'form_d'
  | 'form_144'
  | 'form_c'
  | 'schedule_13'
  | 'form_npx'
  | 'form_13f'
  | 'ownership'
  | 'form_ncen'
  | 'form_nport'
  | 'market_prices'
  | 'factor_returns'
  | 'macro_series'
  | 'archive_document'
  | 'unknown';

const byPath: [RegExp, ItemKind][] = [
  [/(^|\/)company_tickers_exchange\.json$/, 'company_tickers_exchange'],
  [/(^|\/)company_tickers\.json$/, 'company_tickers'],
  [/(^|\/)submissions\/CIK\d{10}(-submissions-\d+)?\.json$/, 'submissions'],
  [/(^|\/)companyfacts\/CIK\d{10}\.json$/, 'companyfacts'],
  [/^xbrl\/.+\.xml$/, 'xbrl_instance'],
  [/(^|\/)(index\/|daily-index\/|full-index\/).+\.idx$/, 'edgar_index'],
  [/^filings\/(10k|10q)\//, 'periodic_report'],
  [/^filings\/8k\//, 'current_report'],
  [/^filings\/6k\//, 'foreign_report'],
  [/^filings\/offerings\//, 'offering'],
  [/^filings\/proxy\//, 'proxy'],
  [/^forms\/formd\//, 'form_d'],
  [/^forms\/form144\//, 'form_144'],
  [/^forms\/formc\//, 'form_c'],
  [/^forms\/13dg\//, 'schedule_13'],
  [/^forms\/npx\//, 'form_npx'],
  [/^forms\/13f\//, 'form_13f'],
  [/^forms\/ownership\//, 'ownership'],
  [/^forms\/ncen\//, 'form_ncen'],
  [/^forms\/nport\//, 'form_nport'],
  [/^market\/prices\/.+\.csv$/i, 'market_prices'],
  [/^market\/factors\/.+\.csv$/i, 'factor_returns'],
  [/^market\/macro\/.+\.csv$/i, 'macro_series'],
  [/^\/Archives\/edgar\/data\/\d+\/\d{18}\/[^/]+$/, 'archive_document'],
];

export function classify(key: string): ItemKind {
  return byPath.find(([pattern]) => pattern.test(key))?.[1] ?? 'unknown';
}

/** The order a run loads kinds in: who a document belongs to is known before the document. */
export const loadOrder: ItemKind[] = [
  'company_tickers',
  'company_tickers_exchange',
  'submissions',
  'edgar_index',
  'companyfacts',
  'xbrl_instance',
  'periodic_report',
  'current_report',
  'foreign_report',
  'offering',
  'proxy',
  'fund_report',
  'archive_document',
  'form_d',
  'form_144',
  'form_c',
  'schedule_13',
  'form_npx',
  'form_13f',
  'ownership',
  'form_ncen',
  'form_nport',
  'market_prices',
  'factor_returns',
  'macro_series',
  'unknown',
];

/** Accession number, CIK and form from a corpus or archive file name, where it names them. */
export function namedInPath(key: string): { accessionNumber: string | null; cik: string | null; form: string | null } {
  const name = key.split('/').pop() ?? key;
  const accession = name.match(/(\d{10}-\d{2}-\d{6})/)?.[1] ?? null;
  const archive = key.match(/^\/Archives\/edgar\/data\/(\d+)\/(\d{10})(\d{2})(\d{6})\//);
  const cik = name.match(/CIK(\d{10})/)?.[1] ?? (archive ? archive[1]!.padStart(10, '0') : null);
  const form = name.match(/^(10-K|10-Q|8-K|6-K|DEF14A|424B\d|S-1|S-3A|S-3|POSAM)_/)?.[1] ?? null;
  return {
    accessionNumber: accession ?? (archive ? `${archive[2]}-${archive[3]}-${archive[4]}` : null),
    cik,
    form: form === 'DEF14A' ? 'DEF 14A' : form === 'POSAM' ? 'POS AM' : form === 'S-3A' ? 'S-3/A' : form,
  };
}

/** The kind of an SEC archive document, from its filing's form. */
export function documentKindOfForm(form: string | null | undefined): ItemKind {
  if (!form) return 'unknown';
  if (/^10-[KQ]/.test(form)) return 'periodic_report';
  if (/^8-K/.test(form)) return 'current_report';
  if (/^6-K/.test(form)) return 'foreign_report';
  if (/^(S-1|S-3|F-1|F-3|424B|POS AM)/.test(form)) return 'offering';
  if (/^DEF 14A/.test(form)) return 'proxy';
  if (/^N-CSRS?(\/A)?$/.test(form)) return 'fund_report';
  return 'unknown';
}
