// What the analytics benchmarks (bench:analytics, bench:strategies) share: an in-process service on
// a fresh PostgreSQL database holding the corpus's market files, an organization on the enterprise
// plan with a key, and the latency figures they print.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
export const figures = (ms: number[]) => `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`;

/** The price files and the daily five-factor and momentum files (the three-factor and monthly files are not read). */
function marketSource(): Source {
  const files = ['prices', 'factors'].flatMap((dir) => readdirSync(path.join(corpus, 'market', dir)).map((name) => `market/${dir}/${name}`)).filter((f) => !/Research_Data_Factors|5_Factors_2x3\.csv$/.test(f));
  return { describe: () => 'market files', async *items() { for (const key of files) yield { key, name: path.basename(key), read: () => readFile(path.join(corpus, key), 'utf8') }; } };
}

/** A listening service on a fresh database with the market files ingested, and a key of an enterprise organization named `orgName`. */
export async function marketService(databaseUrl: string, orgName: string) {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  try {
    const url = await service.listen(0);
    const began = performance.now();
    await runIngest(service.services, marketSource());
    console.log(`market files ingested in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    const org = await createOrganization(service.services.prisma, orgName, { planKey: 'enterprise' });
    const { secret: key } = await issueApiKey(service.services, org.id, 'bench');
    return { url, key, close: () => service.close() };
  } catch (error) {
    await service.close();
    throw error;
  }
}
