// `npm run bench:fund-letters`: the fund letter reads as the letters held grow. On PostgreSQL
// (BENCH_DATABASE_URL, default ids_bench_letters, created fresh), BENCH_REGISTRANTS (300) fund
// registrants each file five reports in the SEC's N-CSR structure (three before the tailored rule,
// with a letter; two after, without), written as the tests write them and loaded by the ingest's
// own runner (submissions, then documents: sections with their tsvector, records, documents). The
// reads run through the resolvers (not over HTTP: the data cache would answer repeats),
// BENCH_REQUESTS (20) times each after two warm-ups: p50 and p99. The heaviest is the full-text
// search, which ranks every matching letter section, keeps each letter's best and highlights a page.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runIngest } from '../ingest/run.ts';
import type { Source, SourceItem } from '../ingest/sources/types.ts';
import { createDataCache } from '../derived/dataCache.ts';
import { fundLetter, fundLetters, type FundLetterFilter } from '../resolvers/fundLetters.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { archivePath, fullReport, fundSubmissions, tailoredReport, type ListedFiling } from '../test/support/ncsrDocuments.ts';
import { ensureDatabase } from './benchDatabase.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_letters';
const registrants = Number(process.env.BENCH_REGISTRANTS ?? 300);
const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

// Sentences a letter is made of, so that words are common (inflation), rarer (semiconductor) or phrases.
const sentences = [
  'Markets rallied as inflation cooled and the Federal Reserve paused its rate increases.',
  'Your Fund returned more than its benchmark, helped by its semiconductor holdings.',
  'Regional bank failures unsettled markets in March, and credit spreads widened.',
  'Falling short-term rates lifted bond prices; mortgage-backed securities led the Fund.',
  'Energy stocks detracted as oil prices fell in the fourth quarter.',
  'We remain focused on long-term results and on keeping costs low for shareholders.',
  'The strength of the dollar weighed on the returns of international holdings.',
  'Tariff announcements drove volatility that the Fund\'s options overlay absorbed.',
  'Supply chain disruptions eased, and industrial companies rebuilt their margins.',
  'Artificial intelligence spending lifted large technology companies throughout the year.',
];
const paragraph = (seed: number, count: number) => Array.from({ length: count }, (_, i) => sentences[(seed * 7 + i * 3) % sentences.length]).join(' ');

function reportsOf(index: number) {
  const cik = String(1_900_000 + index).padStart(10, '0');
  const r = { cik, name: `Bench Fund Trust ${index}`, fileNumber: `811-${String(20000 + index)}` };
  const filings: (ListedFiling & { text: string })[] = [];
  for (let year = 2020; year <= 2024; year++) {
    const accessionNumber = `${String(1_193_125)}`.padStart(10, '0') + `-${String(year + 1).slice(2)}-${String(index * 10 + (year - 2020)).padStart(6, '0')}`;
    const listed = { accessionNumber, form: 'N-CSR', filingDate: `${year + 1}-02-${String(1 + (index % 27)).padStart(2, '0')}`, reportDate: `${year}-12-31`, primaryDocument: `ncsr${year}.htm` };
    const seed = index + year;
    const text =
      year < 2023
        ? fullReport(r, {
            periodEnd: `December 31, ${year}`,
            periodLabel: `December 31, ${year}`,
            fund: `Bench Growth Fund ${index}`,
            letter: { heading: 'Letter to Shareholders', paragraphs: [paragraph(seed, 6), paragraph(seed + 1, 6), paragraph(seed + 2, 6)], signers: [{ name: 'Jane Q. Doe', title: 'President' }] },
            discussion: [paragraph(seed + 3, 5), paragraph(seed + 4, 5)],
          })
        : tailoredReport(r, {
            periodEnd: `December 31, ${year}`,
            periodLabel: `December 31, ${year}`,
            funds: [
              { name: `Bench Growth Fund ${index}`, ticker: `BG${index}`, discussion: [paragraph(seed, 4)] },
              { name: `Bench Income Fund ${index}`, ticker: `BI${index}`, discussion: [paragraph(seed + 5, 4)] },
            ],
          });
    filings.push({ ...listed, text });
  }
  return { r, filings };
}

function lettersSource(): Source {
  return {
    describe: () => `${registrants} fund registrants, 5 reports each`,
    async *items() {
      const all = Array.from({ length: registrants }, (_, i) => reportsOf(i + 1));
      const item = (key: string, text: string): SourceItem => ({ key, name: key.slice(key.lastIndexOf('/') + 1), read: async () => text });
      for (const { r, filings } of all) yield item(`/submissions/CIK${r.cik}.json`, fundSubmissions(r, filings));
      for (const { r, filings } of all) for (const f of filings) yield item(archivePath(r.cik, f), f.text);
    },
  };
}

const reads: { label: string; run: (reader: Parameters<typeof fundLetters>[0]) => Promise<number> }[] = [
  { label: 'list, newest first, limit 25', run: async (reader) => (await fundLetters(reader, { first: 25 })).nodes.length },
  { label: 'list of one registrant (cik)', run: async (reader) => (await fundLetters(reader, { cik: '1900150', first: 25 })).nodes.length },
  ...(
    [
      ['q=inflation (common word)', { q: 'inflation' }],
      ['q="regional bank failures" (phrase)', { q: '"regional bank failures"' }],
      ['q=semiconductor -energy', { q: 'semiconductor -energy' }],
      ['q=tariff, filed 2024', { q: 'tariff', filedFrom: '2024-01-01', filedTo: '2024-12-31' }],
    ] as [string, FundLetterFilter][]
  ).map(([label, filter]) => ({ label, run: async (reader: Parameters<typeof fundLetters>[0]) => (await fundLetters(reader, { ...filter, first: 25 })).nodes.length })),
  { label: 'one letter with its text', run: async (reader) => (await fundLetter(reader, '0001193125-23-001502')).sections.length },
];

async function main() {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const { prisma } = service.services;
  try {
    const began = performance.now();
    const run = await runIngest(service.services, lettersSource());
    console.log(`ingested ${run.written} items (${run.failed} failed) in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    await prisma.$executeRawUnsafe('ANALYZE "Section"');
    await prisma.$executeRawUnsafe('ANALYZE "FormRecord"');
    const [size] = await prisma.$queryRaw<{ letters: bigint; sections: bigint; chars: bigint }[]>`
      SELECT (SELECT count(*) FROM "FormRecord" WHERE family = 'NCSR') AS letters, (SELECT count(*) FROM "Section") AS sections, (SELECT coalesce(sum("charCount"), 0) FROM "Section") AS chars`;
    console.log(`${size!.letters} letters, ${size!.sections} sections, ${(Number(size!.chars) / 1e6).toFixed(1)} M characters; ${requests} runs per read after 2 warm-ups, through the resolvers, PostgreSQL with the GIN index`);
    console.log(`| ${'read'.padEnd(36)} | rows | p50 ms | p99 ms |`);
    console.log(`|${'-'.repeat(38)}|-----:|-------:|-------:|`);
    for (const { label, run: read } of reads) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < requests + 2; i++) {
        const reader = { prisma, cache: { data: createDataCache(60_000) } };
        const start = performance.now();
        rows = await read(reader);
        if (i >= 2) times.push(performance.now() - start);
      }
      console.log(`| ${label.padEnd(36)} | ${String(rows).padStart(4)} | ${percentile(times, 0.5).toFixed(1).padStart(6)} | ${percentile(times, 0.99).toFixed(1).padStart(6)} |`);
    }
  } finally {
    await service.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
