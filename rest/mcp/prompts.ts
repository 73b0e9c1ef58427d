// MCP prompts: analyst workflows that tell the model which tools to call and how to cite.
import { clipped } from '../../core/errors.ts';
import { invalidParams } from './protocol.ts';

interface Prompt {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  text(args: Record<string, string>): string;
}

const cite = 'Cite every figure and claim with its accession number and citation URL from the tool results; say when a tool reports that a document is not ingested rather than filling the gap.';

const prompts: Prompt[] = [
  {
    name: 'risk_factors_summary',
    title: 'Summarize the latest 10-K risk factors',
    description: 'Summarize the risk factors (Item 1A) of a company\'s latest 10-K, with citations.',
    arguments: [{ name: 'ticker', description: 'Ticker symbol, e.g. NVDA', required: true }],
    text: ({ ticker }) =>
      `Summarize the risk factors of ${ticker}'s latest annual report. Call filings_latest with {"ticker":"${ticker}","form":"10-K"} to find it, then filings_latest_section with {"ticker":"${ticker}","section_key":"item_1a"}. If that says the latest document is not ingested, use the accession it names with filings_section_get and say which filing you summarized. Group the risks into at most seven themes. ${cite}`,
  },
  {
    name: 'revenue_trend',
    title: 'Revenue trend with sources',
    description: 'Annual and quarterly revenue of a company from its XBRL facts, with the tag used and citations.',
    arguments: [{ name: 'ticker', description: 'Ticker symbol, e.g. AAPL', required: true }],
    text: ({ ticker }) =>
      `Describe ${ticker}'s revenue over the last four fiscal years and the last four quarters. Call statements_get with {"ticker":"${ticker}","period":"annual","limit":4} and with {"period":"quarterly","limit":4}; use facts_get with {"ticker":"${ticker}","tag":"revenue"} to say which XBRL tag the company reports. Flag derived quarters (Q4 = FY − Q1 − Q2 − Q3) as derived. ${cite}`,
  },
  {
    name: 'leadership_changes',
    title: 'Recent director and officer changes',
    description: 'Departures and appointments a company disclosed in 8-K Item 5.02.',
    arguments: [{ name: 'ticker', description: 'Ticker symbol, e.g. META', required: true }],
    text: ({ ticker }) =>
      `List the director and officer changes ${ticker} disclosed in 8-K Item 5.02. Call events_officer_changes_list with {"ticker":"${ticker}"}. For each: who, which role, departure or appointment, effective date. Events marked fromIndexOnly are known from EDGAR's index only: name them as filed without inventing their content. ${cite}`,
  },
];

export function listPrompts() {
  return prompts.map(({ text: _text, ...prompt }) => prompt);
}

export function getPrompt(name: unknown, args: unknown) {
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) throw invalidParams(`Unknown prompt ${clipped(String(JSON.stringify(name)))}; prompts/list names the prompts.`);
  const given = (args && typeof args === 'object' && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
  const missing = prompt.arguments.filter((a) => a.required && (typeof given[a.name] !== 'string' || !(given[a.name] as string).trim()));
  if (missing.length) throw invalidParams(`Prompt ${prompt.name} needs ${missing.map((a) => a.name).join(', ')}.`, 'validation_error', { issues: missing.map((a) => ({ path: a.name, message: 'required' })) });
  const values = Object.fromEntries(prompt.arguments.map((a) => [a.name, String(given[a.name] ?? '').trim()]));
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(values) } }] };
}
