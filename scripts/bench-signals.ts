// `npm run bench:signals`: what GET /v1/signals without a company filter costs, on PostgreSQL
// (BENCH_DATABASE_URL, default ids_signals, created fresh and loaded with the corpus's submissions,
// companyfacts, 8-K and offering documents and Forms 4). BENCH_REQUESTS (20) sequential requests of
// each kind, interleaved, the first two of each not counted:
// - recomputed: the data cache dropped before each request, so every company's dilution score history
//   is recomputed (what every read did before the histories were kept);
// - kept: the histories kept under their records' version (derived/signals.ts), as reads run now.
// Both answers are compared, so the ratio is of the same work's result.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIngest } from '../ingest/run.ts';
import { folderSource } from '../ingest/sources/folder.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import type { Source } from '../ingest/sources/types.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_signals';
const requests = Number(process.env.BENCH_REQUESTS ?? 20);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const held = /^(reference\/company_tickers\.json|submissions\/|companyfacts\/|filings\/(8k|offerings)\/|forms\/ownership\/)/;

function subset(): Source {
  const all = folderSource(corpus);
  return { describe: () => 'signals corpus', async *items() { for await (const item of all.items()) if (held.test(item.key)) yield item; } };
}

await ensureDatabase(databaseUrl, true);
const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off', IDS_REQUEST_CACHE_TTL_MS: '600000' });
const service = await createService(config, { logger: createLogger('warn') });
const url = await service.listen(0);
try {
  const began = performance.now();
  await runIngest(service.services, subset());
  const companies = await service.services.prisma.dilutionProfile.count();
  console.log(`corpus ingested in ${((performance.now() - began) / 1000).toFixed(1)} s (${companies} companies with dilution records)`);
  const org = await createOrganization(service.services.prisma, 'bench:signals', { planKey: 'team' });
  const { secret: key } = await issueApiKey(service.services, org.id, 'bench');
  const read = async () => {
    const start = performance.now();
    const answer = await fetch(`${url}/v1/signals?limit=100`, { headers: { 'x-api-key': key } });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`${answer.status} ${text}`);
    const { data } = JSON.parse(text) as { data: unknown[] };
    return { ms: performance.now() - start, signals: JSON.stringify(data), count: data.length };
  };
  const times = { recomputed: [] as number[], kept: [] as number[] };
  let answers = { recomputed: '', kept: '' };
  let count = 0;
  for (let i = 0; i < requests + 2; i++) {
    service.services.cache.data.clear();
    const recomputed = await read();
    const kept = await read();
    if (i >= 2) {
      times.recomputed.push(recomputed.ms);
      times.kept.push(kept.ms);
    }
    answers = { recomputed: recomputed.signals, kept: kept.signals };
    count = kept.count;
  }
  if (answers.recomputed !== answers.kept) throw new Error('the kept histories answered differently from recomputing them');
  const [before, after] = [median(times.recomputed), median(times.kept)];
  console.log(`GET /v1/signals (no filter, ${count} signals on the first page), ${requests} requests each, median:`);
  console.log(`  recomputed each read  ${before.toFixed(1)} ms`);
  console.log(`  kept histories        ${after.toFixed(1)} ms`);
  console.log(`  ratio                 ${(before / after).toFixed(1)}×`);
} finally {
  await service.close();
}
