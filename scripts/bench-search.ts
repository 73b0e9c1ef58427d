// `npm run bench:search`: full-text search query time as the indexed text grows.
// On PostgreSQL (BENCH_DATABASE_URL, default ids_bench_search, created fresh): the corpus's 10-K,
// 10-Q and 8-K documents are ingested (their sections and 8-K items get their tsvector from the
// database), then the indexed text is grown to 4× and 16× by inserting synthetic copies of those
// filings, their sections and 8-K items (same text, new accession numbers). At each size a few
// queries run through the /v1/search resolver itself (not over HTTP: the data cache would answer
// repeats), BENCH_REQUESTS (20) times each after two warm-ups: p50 and p99.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIngest } from '../ingest/run.ts';
import type { Source } from '../ingest/sources/types.ts';
import { createDataCache } from '../derived/dataCache.ts';
import { ciksFor } from '../resolvers/entities.ts';
import { searchFilings, type SearchFilter } from '../resolvers/search.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_search';
const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const scales = [1, 4, 16];
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

const queries: { label: string; filter: SearchFilter; ticker?: string }[] = [
  { label: 'phrase "supply chain"', filter: { q: '"supply chain"' } },
  { label: 'common word: revenue', filter: { q: 'revenue' } },
  { label: 'cybersecurity incident -insurance', filter: { q: 'cybersecurity incident -insurance' } },
  { label: 'chief financial officer, form=8-K', filter: { q: 'chief financial officer', form: '8-K' } },
  { label: 'risk, ticker=AAPL, 2024', ticker: 'AAPL', filter: { q: 'risk', filedFrom: '2024-01-01', filedTo: '2024-12-31' } },
];

function documentsSource(): Source {
  const files = [
    'reference/company_tickers.json',
    'submissions/CIK0000320193.json',
    'submissions/CIK0001045810.json',
    ...['filings/10k', 'filings/10q', 'filings/8k'].flatMap((dir) => readdirSync(path.join(corpus, dir)).map((name) => `${dir}/${name}`)).filter((f) => !/TSLA/.test(f)),
  ];
  return { describe: () => 'search documents', async *items() { for (const key of files) yield { key, name: path.basename(key), read: () => readFile(path.join(corpus, key), 'utf8') }; } };
}

async function main() {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const { prisma } = service.services;
  try {
    const began = performance.now();
    const run = await runIngest(service.services, documentsSource());
    console.log(`ingested ${run.written} documents in ${((performance.now() - began) / 1000).toFixed(1)} s (${run.failed} failed)`);
    const originals = (await prisma.$queryRaw<{ accessionNumber: string }[]>`
      SELECT "accessionNumber" FROM "Filing" f WHERE EXISTS (SELECT 1 FROM "Section" s WHERE s."accessionNumber" = f."accessionNumber")
         OR EXISTS (SELECT 1 FROM "FilingEvent" e WHERE e."accessionNumber" = f."accessionNumber")`).map((r) => r.accessionNumber);

    console.log(`\n${requests} runs per query after 2 warm-ups, through the /v1/search resolver, limit 25; PostgreSQL with the GIN indexes`);
    console.log(`| scale | sections | 8-K items | indexed text | ${'query'.padEnd(36)} | hits | p50 ms | p99 ms |`);
    console.log(`|------:|---------:|----------:|-------------:|${'-'.repeat(38)}|-----:|-------:|-------:|`);
    let copies = 0;
    for (const scale of scales) {
      for (; copies < scale - 1; copies++) await copyFilings(prisma, originals, copies + 1);
      await prisma.$executeRawUnsafe('ANALYZE "Section"');
      await prisma.$executeRawUnsafe('ANALYZE "FilingEvent"');
      const [size] = await prisma.$queryRaw<{ sections: bigint; items: bigint; chars: bigint }[]>`
        SELECT (SELECT count(*) FROM "Section") AS sections, (SELECT count(*) FROM "FilingEvent" WHERE "accessionNumber" IS NOT NULL) AS items,
               (SELECT coalesce(sum("charCount"), 0) FROM "Section") + (SELECT coalesce(sum(length(data->>'excerpt')), 0) FROM "FilingEvent") AS chars`;
      for (const { label, filter, ticker } of queries) {
        const times: number[] = [];
        let hits = 0;
        for (let i = 0; i < requests + 2; i++) {
          // a fresh data cache each time: the company lookup is the only thing it would keep
          const reader = { prisma, cache: { data: createDataCache(60_000) } };
          const start = performance.now();
          // as GET /v1/search does: the ticker's CIKs first (schema/edgar.ts companyFilter), then the search
          const ciks = ticker ? await ciksFor(reader, { ticker }) : null;
          const page = await searchFilings(reader, { ...filter, ciks }, { first: 25 });
          if (i >= 2) times.push(performance.now() - start);
          hits = page.nodes.length;
        }
        console.log(
          `| ${`${scale}×`.padStart(5)} | ${String(size!.sections).padStart(8)} | ${String(size!.items).padStart(9)} | ${`${(Number(size!.chars) / 1e6).toFixed(1)} MB`.padStart(12)} | ${label.padEnd(36)} | ${String(hits).padStart(4)} | ${percentile(times, 0.5).toFixed(1).padStart(6)} | ${percentile(times, 0.99).toFixed(1).padStart(6)} |`,
        );
      }
    }
    // At these sizes the planner may read the small table whole; with sequential scans off it shows the GIN index answers the match.
    const explain = `EXPLAIN SELECT count(*) FROM "Section" WHERE "searchVector" @@ websearch_to_tsquery('english', '"supply chain"')`;
    const plan = await prisma.$transaction(async (tx) => {
      const chosen = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(explain);
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return { chosen, indexed: await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(explain) };
    });
    const show = (rows: { 'QUERY PLAN': string }[]) => rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n');
    console.log(`\nplan of the section match at ${scales.at(-1)}×, as chosen:\n${show(plan.chosen)}\nwith sequential scans off:\n${show(plan.indexed)}`);
  } finally {
    await service.close();
  }
}

/** One synthetic copy of the filings: same text, accession `{original}-c{n}`. */
async function copyFilings(prisma: Parameters<typeof searchFilings>[0]['prisma'], originals: string[], n: number) {
  const suffix = `-c${n}`;
  await prisma.$executeRaw`
    INSERT INTO "Filing" ("accessionNumber", cik, form, "filedAt", "acceptedAt", "orderedAt", "reportDate", items, "primaryDocument", "updatedAt")
    SELECT "accessionNumber" || ${suffix}, cik, form, "filedAt", "acceptedAt", "orderedAt", "reportDate", items, "primaryDocument", now() FROM "Filing" WHERE "accessionNumber" = ANY(${originals})`;
  await prisma.$executeRaw`
    INSERT INTO "Section" ("accessionNumber", key, title, text, ordinal, "charCount")
    SELECT "accessionNumber" || ${suffix}, key, title, text, ordinal, "charCount" FROM "Section" WHERE "accessionNumber" = ANY(${originals})`;
  await prisma.$executeRaw`
    INSERT INTO "FilingEvent" (id, "accessionNumber", cik, item, type, "eventDate", "filedAt", "orderedAt", "fromIndexOnly", confidence, data, "sourceKey")
    SELECT id || ${suffix}, "accessionNumber" || ${suffix}, cik, item, type, "eventDate", "filedAt", "orderedAt", "fromIndexOnly", confidence, data, "sourceKey" || ${suffix}
    FROM "FilingEvent" WHERE "accessionNumber" = ANY(${originals})`;
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
