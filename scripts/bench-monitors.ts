// `npm run bench:monitors`: how long a filing takes from its ingest to a monitor's webhook
// delivery with 10, 1,000 and 10,000 active monitors (BENCH_MONITORS), on PostgreSQL
// (BENCH_DATABASE_URL, default ids_bench_monitors on 127.0.0.1, created fresh). One service runs
// in this process, as `npm start` would with that database; a local receiver notes arrivals.
//
// The monitors are a realistic mix: one watches Apple's 8-Ks (the filing ingested each round),
// five watch every company's 10-Ks (candidates of every filing, rejected on their form), and the
// rest each watch another company. Evaluation finds its candidates through the GIN index on the
// monitors' CIKs, so the latency stays flat as the monitors grow; the script prints the candidate
// count and the query plan to show it.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runIngest } from '../ingest/run.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { newId } from '../core/ids.ts';
import type { Source } from '../ingest/sources/types.ts';
import { ensureDatabase } from './benchDatabase.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_monitors';
const counts = (process.env.BENCH_MONITORS ?? '10,1000,10000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function indexSource(name: string, lines: string[]): Source {
  const text = ['Description: Master Index', '', 'CIK|Company Name|Form Type|Date Filed|Filename', '-'.repeat(80), ...lines, ''].join('\n');
  return { describe: () => 'bench index', async *items() { yield { key: `index/daily/${name}`, name, read: async () => text }; } };
}

async function main() {
  await ensureDatabase(databaseUrl, true);
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { items?: { accessionNumber: string }[] } };
      for (const item of event.data.items ?? []) if (!arrivals.has(item.accessionNumber)) arrivals.set(item.accessionNumber, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const url = await service.listen(0);
  const { prisma } = service.services;
  const org = await createOrganization(prisma, 'bench:monitors', { planKey: 'team' });
  const { secret: key } = await issueApiKey(service.services, org.id, 'bench');
  const endpoint = await (await fetch(`${url}/v1/webhook_endpoints`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiverUrl, eventTypes: ['api_key.created'] }) })).json() as { id: string };
  // Apple must be known for its monitor's read to run
  await runIngest(service.services, indexSource('master.20250101.idx', ['320193|Apple Inc.|8-K|2025-01-01|edgar/data/320193/0000320193-25-000001.txt']));
  await service.webhookWorker!.drain();

  console.log('active monitors | candidates per filing | ingest→webhook p50 | max | rounds');
  let round = 0;
  for (const count of counts) {
    await prisma.monitor.deleteMany({});
    const start = await prisma.$queryRaw<{ xmin: bigint }[]>`SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS "xmin"`;
    const position = { startTxid: start[0]!.xmin - 1n, startSeq: 9_223_372_036_854_775_807n, checkedTxid: 0n, checkedSeq: 0n };
    const common = { orgId: org.id, records: 'filing', route: '/v1/filings', deliveryType: 'webhook', webhookEndpointId: endpoint.id, ...position };
    const rows = [
      { ...common, id: newId('mon'), name: 'Apple 8-Ks', params: { cik: '320193', form: '8-K' }, ciks: ['0000320193'], form: '8-K' },
      ...Array.from({ length: Math.min(5, count - 1) }, () => ({ ...common, id: newId('mon'), name: 'every 10-K', params: { form: '10-K' }, ciks: ['*'], form: '10-K' })),
      ...Array.from({ length: Math.max(0, count - 6) }, (_, i) => ({ ...common, id: newId('mon'), name: `company ${i}`, params: { cik: String(900_000 + i), form: '8-K' }, ciks: [String(900_000 + i).padStart(10, '0')], form: '8-K' })),
    ];
    for (let i = 0; i < rows.length; i += 2000) await prisma.monitor.createMany({ data: rows.slice(i, i + 2000) });
    await prisma.$executeRawUnsafe('ANALYZE "Monitor"');
    const candidates = await prisma.monitor.count({ where: { isActive: true, records: { in: ['filing'] }, ciks: { hasSome: ['*', '0000320193'] } } });
    const latencies: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const accession = `0000320193-25-${String(100 + ++round).padStart(6, '0')}`;
      const began = performance.now();
      await runIngest(service.services, indexSource(`master.2025${String(round).padStart(4, '0')}.idx`, [`320193|Apple Inc.|8-K|2025-02-01|edgar/data/320193/${accession}.txt`]));
      const committed = performance.now();
      while (!arrivals.has(accession)) {
        if (performance.now() - began > 30_000) throw new Error(`no delivery of ${accession}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      latencies.push(arrivals.get(accession)! - committed);
    }
    console.log(`${String(count).padStart(15)} | ${String(candidates).padStart(21)} | ${median(latencies).toFixed(1).padStart(15)} ms | ${Math.max(...latencies).toFixed(1)} ms | ${rounds}`);
  }
  const plan = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN SELECT * FROM "Monitor" WHERE "isActive" AND "records" = ANY('{filing}') AND "ciks" && '{*,0000320193}'::text[]`);
  console.log(`\ncandidate query plan with ${counts.at(-1)} monitors:\n${plan.map((p) => `  ${p['QUERY PLAN']}`).join('\n')}`);
  await service.close();
  receiver.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
