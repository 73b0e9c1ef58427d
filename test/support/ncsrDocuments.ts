// Form N-CSR documents in the SEC's structure, written by the tests: the form's cover (registrant,
// 811- file number, fiscal year end, reporting period), Item 1 "Reports to Stockholders" carrying the
// shareholder report, then Items 2 to 13 and the signatures. `fullReport` is a report as funds sent
// them before the tailored shareholder report rule (a letter, a discussion of fund performance,
// the financial statements); `tailoredReport` is one after it (per fund: costs, how it performed,
// key statistics; no letter). And the submissions file that lists them, as data.sec.gov serves it.

export interface Registrant {
  cik: string;
  name: string;
  fileNumber: string;
}

const cover = (form: string, r: Registrant, periodEnd: string) => `
<p style="text-align:center"><b>UNITED STATES<br>SECURITIES AND EXCHANGE COMMISSION</b><br>Washington, D.C. 20549</p>
<p style="text-align:center"><b>FORM ${form}</b></p>
<p style="text-align:center"><b>CERTIFIED SHAREHOLDER REPORT OF REGISTERED MANAGEMENT INVESTMENT COMPANIES</b></p>
<p style="text-align:center">Investment Company Act file number ${r.fileNumber}</p>
<p style="text-align:center"><b>${r.name}</b></p>
<p style="text-align:center">(Exact name of registrant as specified in charter)</p>
<p>Date of fiscal year end: December 31</p>
<p>Date of reporting period: ${periodEnd}</p>
<hr>
<p><b>Item 1. Reports to Stockholders.</b></p>`;

const laterItems = (r: Registrant) => `
<p><b>Item 2. Code of Ethics.</b></p>
<p>The registrant has adopted a code of ethics that applies to its principal executive officer and principal financial officer.</p>
<p><b>Item 3. Audit Committee Financial Expert.</b></p><p>The board has determined that one member of the audit committee is an audit committee financial expert.</p>
<p><b>Item 13. Exhibits.</b></p><p>(a)(2) Certifications pursuant to Rule 30a-2(a).</p>
<p style="text-align:center"><b>SIGNATURES</b></p>
<p>Pursuant to the requirements of the Securities Exchange Act of 1934 and the Investment Company Act of 1940, the registrant has duly caused this report to be signed on its behalf.</p>
<p>${r.name}</p>`;

export interface LetterContent {
  heading: string;
  paragraphs: string[];
  signers: { name: string; title: string }[];
}

/** A report before the tailored rule: contents, the letter, the discussion of fund performance, statements. */
export function fullReport(r: Registrant, options: { form?: 'N-CSR' | 'N-CSRS'; periodEnd: string; periodLabel: string; fund: string; letter: LetterContent; discussion: string[] }): string {
  const { letter } = options;
  return `<html><head><title>${options.form ?? 'N-CSR'}</title></head><body>
${cover(options.form ?? 'N-CSR', r, options.periodEnd)}
<p style="text-align:center"><b>${options.fund}</b></p>
<p style="text-align:center">${options.form === 'N-CSRS' ? 'Semi-Annual' : 'Annual'} Report ${options.periodLabel}</p>
<p><b>Table of Contents</b></p>
<table><tr><td>${letter.heading}</td><td>1</td></tr><tr><td>Management's Discussion of Fund Performance</td><td>3</td></tr><tr><td>Schedule of Investments</td><td>5</td></tr><tr><td>Financial Highlights</td><td>9</td></tr></table>
<h2>${letter.heading}</h2>
<p>Dear Shareholder,</p>
${letter.paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
<p>Sincerely,</p>
${letter.signers.map((s) => `<p>${s.name}<br>${s.title}</p>`).join('\n')}
<p style="text-align:center">1</p>
<h2>Management's Discussion of Fund Performance</h2>
${options.discussion.map((p) => `<p>${p}</p>`).join('\n')}
<h2>Schedule of Investments</h2>
<table><tr><th>Security</th><th>Shares</th><th>Value ($)</th></tr><tr><td>Apple Inc.</td><td>1,000</td><td>192,530</td></tr><tr><td>Microsoft Corp.</td><td>500</td><td>188,020</td></tr></table>
<h2>Financial Highlights</h2>
<p>Net asset value, end of period: $24.17. Total return: 18.4%.</p>
${laterItems(r)}
</body></html>`;
}

/** A tailored shareholder report (since July 2024): one per fund, no letter, a short discussion under "How did the Fund perform…?". */
export function tailoredReport(r: Registrant, options: { form?: 'N-CSR' | 'N-CSRS'; periodEnd: string; periodLabel: string; funds: { name: string; ticker: string; discussion: string[] }[] }): string {
  const kind = options.form === 'N-CSRS' ? 'semi-annual' : 'annual';
  return `<html><body>
${cover(options.form ?? 'N-CSR', r, options.periodEnd)}
${options.funds
  .map(
    (f) => `
<p><b>${f.name}</b></p><p>Investor Class: ${f.ticker}</p>
<p><b>${kind === 'annual' ? 'Annual' : 'Semi-Annual'} Shareholder Report | ${options.periodLabel}</b></p>
<p>This ${kind} shareholder report contains important information about ${f.name} (the "Fund") for the period of January 1, 2024, to ${options.periodLabel}.</p>
<p><b>What were the Fund costs for the last year?</b></p>
<table><tr><th>Class Name</th><th>Costs of a $10,000 investment</th><th>Costs paid as a percentage of a $10,000 investment</th></tr><tr><td>Investor Class</td><td>$52</td><td>0.49%</td></tr></table>
<p><b>How did the Fund perform last year and what affected its performance?</b></p>
${f.discussion.map((p) => `<p>${p}</p>`).join('\n')}
<p><b>How has the Fund performed over the last ten years?</b></p>
<table><tr><th></th><th>1 Year</th><th>5 Years</th><th>10 Years</th></tr><tr><td>Investor Class</td><td>14.21%</td><td>9.87%</td><td>8.02%</td></tr></table>
<p><b>Key Fund Statistics</b></p>
<table><tr><td>Net Assets</td><td>$1,204,331,000</td></tr><tr><td>Number of Holdings</td><td>87</td></tr></table>
<p><b>Availability of Additional Information</b></p><p>Additional information is available at the Fund's website.</p>`,
  )
  .join('\n')}
${laterItems(r)}
</body></html>`;
}

export interface ListedFiling {
  accessionNumber: string;
  form: string;
  filingDate: string;
  reportDate: string;
  primaryDocument: string;
}

/** The registrant's submissions file (data.sec.gov/submissions/CIK##########.json) listing its filings, newest first. */
export function fundSubmissions(r: Registrant, filings: ListedFiling[]): string {
  const sorted = [...filings].sort((a, b) => b.filingDate.localeCompare(a.filingDate));
  const column = <K extends keyof ListedFiling>(k: K) => sorted.map((f) => f[k]);
  return JSON.stringify({
    cik: String(Number(r.cik)),
    entityType: 'other',
    sic: '',
    sicDescription: '',
    name: r.name,
    tickers: [],
    exchanges: [],
    fiscalYearEnd: '1231',
    stateOfIncorporation: 'DE',
    addresses: {},
    formerNames: [],
    filings: {
      recent: {
        accessionNumber: column('accessionNumber'),
        filingDate: column('filingDate'),
        reportDate: column('reportDate'),
        acceptanceDateTime: sorted.map((f) => `${f.filingDate}T16:05:12.000Z`),
        act: sorted.map(() => '40'),
        form: column('form'),
        fileNumber: sorted.map(() => r.fileNumber),
        filmNumber: sorted.map((_, i) => `2478${String(i).padStart(5, '0')}`),
        items: sorted.map(() => ''),
        size: sorted.map(() => 120_000),
        isXBRL: sorted.map(() => 0),
        isInlineXBRL: sorted.map(() => 0),
        primaryDocument: column('primaryDocument'),
        primaryDocDescription: column('form'),
      },
      files: [],
    },
  });
}

/** Where the SEC serves a filing's document. */
export const archivePath = (cik: string, f: Pick<ListedFiling, 'accessionNumber' | 'primaryDocument'>) => `/Archives/edgar/data/${Number(cik)}/${f.accessionNumber.replace(/-/g, '')}/${f.primaryDocument}`;
