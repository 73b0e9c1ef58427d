// `npm run bench:dilution`: what the dilution family costs.
// 1. Parsing: each offering document of the corpus (filings/offerings/) read into its cover and its
//    dilution terms (ingest/parsers/offerings/dilutionTerms.ts), BENCH_PARSES (20) times; median per document.
// 2. Over HTTP: GET /v1/dilution/score for the corpus's small caps, on PostgreSQL (BENCH_DATABASE_URL,
//    default ids_bench_dilution, created fresh and loaded with their submissions, companyfacts and
//    offering documents), BENCH_REQUESTS (50) sequential requests each, p50/p99.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dilutionTermsOfFiling } from '../ingest/parsers/offerings/dilutionTerms.ts';
import { runIngest } from '../ingest/run.ts';
import type { Source } from '../ingest/sources/types.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_dilution';
const parses = Number(process.env.BENCH_PARSES ?? 20);
const requests = Number(process.env.BENCH_REQUESTS ?? 50);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

const offerings = readdirSync(path.join(corpus, 'filings', 'offerings')).map((name) => `filings/offerings/${name}`);
const issuers = [
  { ticker: 'ALZN', files: ['submissions/CIK0001677077.json'] },
  { ticker: 'IMNN', files: ['submissions/CIK0000749647.json'] },
  { ticker: 'VINC', files: ['submissions/CIK0001796129.json'] },
  { ticker: 'LPA', files: ['companyfacts/CIK0001997711.json'] },
  { ticker: 'TRAW', files: [] },
];

async function parsing() {
  console.log(`parsing the corpus's offering documents (${parses} times each, median):`);
  let total = 0;
  for (const key of offerings) {
    const text = await readFile(path.join(corpus, key), 'utf8');
    const times: number[] = [];
    for (let i = 0; i < parses; i++) {
      const began = performance.now();
      dilutionTermsOfFiling({ text, name: path.basename(key) });
      times.push(performance.now() - began);
    }
    const median = percentile(times, 0.5);
    total += median;
    console.log(`  ${path.basename(key).padEnd(60)} ${(text.length / 1e6).toFixed(2).padStart(5)} MB ${median.toFixed(1).padStart(7)} ms`);
  }
  console.log(`  all ${offerings.length} documents: ${total.toFixed(0)} ms`);
}

function source(keys: string[]): Source {
  return { describe: () => 'dilution corpus', async *items() { for (const key of keys) yield { key, name: path.basename(key), read: () => readFile(path.join(corpus, key), 'utf8') }; } };
}

async function overHttp() {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const url = await service.listen(0);
  try {
    const began = performance.now();
    await runIngest(service.services, source(['reference/company_tickers.json', ...issuers.flatMap((i) => i.files), ...offerings]));
    console.log(`\nsmall caps' files ingested in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const org = await createOrganization(service.services.prisma, 'bench:dilution', { planKey: 'team' });
    const { secret: key } = await issueApiKey(service.services, org.id, 'bench');
    console.log(`GET /v1/dilution/score, ${requests} sequential requests each (the first two not counted):`);
    for (const { ticker } of issuers) {
      const times: number[] = [];
      let body: { score: number | null; band: string; confidence: string } | undefined;
      for (let i = 0; i < requests + 2; i++) {
        const start = performance.now();
        const answer = await fetch(`${url}/v1/dilution/score?ticker=${ticker}`, { headers: { 'x-api-key': key } });
        if (answer.status !== 200) throw new Error(`${ticker}: ${answer.status} ${await answer.text()}`);
        body = (await answer.json()) as typeof body;
        if (i >= 2) times.push(performance.now() - start);
      }
      console.log(`  ${ticker.padEnd(5)} p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (score ${body!.score}, ${body!.band}, confidence ${body!.confidence})`);
    }
  } finally {
    await service.close();
  }
}

await parsing();
await overHttp();
