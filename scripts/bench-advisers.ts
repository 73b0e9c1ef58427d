// `npm run bench:advisers`: the advisers reads, and an issuer's 13F holders, as the filings behind
// them grow. On PostgreSQL (BENCH_DATABASE_URL, default ids_bench_advisers, created fresh): the
// corpus's 13F and N-CEN filings (and Apple's submissions, so that its name is known) are ingested,
// then grown to 10× and 100× by synthetic copies: each 13F filer
// copied into new managers (CIKs from 9000000000 up, which the SEC has not assigned), each with
// BENCH_QUARTERS (8) quarters of the original's information table; each N-CEN copied under new
// registrants (naming the same adviser, whose funds advised grow with them). At each size, through
// the resolvers themselves (not over HTTP: the answer cache would serve repeats), BENCH_REQUESTS (10)
// times each after a warm-up, p50 and p99 of:
//   - the list past the TTL (IDS_REQUEST_CACHE_TTL_MS, 1 ms here): the directory of advisers kept
//     under the data version, against the previous implementation measured alike, which rebuilt it
//     from every 13F and N-CEN record once the TTL had passed (a fresh data cache does that),
//   - the list warm: the directory kept, filtered by name,
//   - Apple's 13F holders (matched by name in every manager's latest table), warm (the CIKs and
//     citations kept): only the rows that may name it are read, against the previous
//     implementation's reads alone (every manager's latest 13F records with their whole
//     information tables), a lower bound of its cost,
//   - a filer's profile (8 quarters, top 10 positions each), cold and warm.
// A read measured against a baseline prints the baseline's p50 and the ratio of the two.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runIngest } from '../ingest/run.ts';
import { createDataCache } from '../derived/dataCache.ts';
import { adviser, advisers } from '../resolvers/advisers.ts';
import { institutionalHolders } from '../resolvers/ownership.ts';
import { createService } from '../server/app.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { folderSource } from '../ingest/sources/folder.ts';
import { ensureDatabase } from './benchDatabase.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ids_bench_advisers';
const requests = Number(process.env.BENCH_REQUESTS ?? 10);
const quarters = Number(process.env.BENCH_QUARTERS ?? 8);
const scales = [1, 10, 100];
const profiled = '0001790837'; // Bull Street Advisors: the largest 13F information table of the corpus
// its first synthetic copy: 9000000000 + copy 1 × 1000 + its place (3rd) among the 13F filings by accession number
const syntheticBullStreet = '9000001003';
const apple = '0000320193';
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

type Prisma = Awaited<ReturnType<typeof createService>>['services']['prisma'];

/** Copies `from`..`to` (exclusive) of every 13F filer, each with `quarters` quarters, and of every N-CEN registrant. */
async function grow(prisma: Prisma, from: number, to: number) {
  if (to <= from) return;
  await prisma.$executeRaw`
    INSERT INTO "Entity" (cik, name, kind, tickers, exchanges, "updatedAt")
    SELECT lpad((9000000000 + c * 1000 + o.n)::text, 10, '0'), o.name || ' (synthetic copy ' || c || ')', 'manager', '{}', '{}', now()
    FROM (SELECT row_number() OVER (ORDER BY "id") AS n, "data"->'manager'->>'name' AS name FROM "FormRecord" WHERE "family" = '13F' AND NOT "isSample" AND "accessionNumber" IS NOT NULL AND "id" NOT LIKE '%-s%') o
    CROSS JOIN generate_series(${from}::int, ${to - 1}::int) c`;
  await prisma.$executeRaw`
    INSERT INTO "FormRecord" ("id", "accessionNumber", "family", "formType", "cik", "filedAt", "periodOfReport", "orderedAt", "isSample", "parties", "data", "sourceKey")
    SELECT o."id" || '-s' || c || 'q' || q, o."accessionNumber" || '-s' || c || 'q' || q, o."family", o."formType", lpad((9000000000 + c * 1000 + o.n)::text, 10, '0'),
      (o."filedAt" - make_interval(months => 3 * q))::date, (o."periodOfReport" - make_interval(months => 3 * q))::date, (o."orderedAt" - make_interval(months => 3 * q))::date, false, o."parties",
      jsonb_set(o."data", '{manager,cik}', to_jsonb(lpad((9000000000 + c * 1000 + o.n)::text, 10, '0'))), o."sourceKey" || '-s' || c || 'q' || q
    FROM (SELECT row_number() OVER (ORDER BY "id") AS n, * FROM "FormRecord" WHERE "family" = '13F' AND NOT "isSample" AND "accessionNumber" IS NOT NULL AND "id" NOT LIKE '%-s%') o
    CROSS JOIN generate_series(${from}::int, ${to - 1}::int) c CROSS JOIN generate_series(0, ${quarters - 1}::int) q`;
  await prisma.$executeRaw`
    INSERT INTO "Entity" (cik, name, kind, tickers, exchanges, "updatedAt")
    SELECT lpad((9500000000 + c * 1000 + o.n)::text, 10, '0'), o.name || ' (synthetic copy ' || c || ')', 'fund', '{}', '{}', now()
    FROM (SELECT row_number() OVER (ORDER BY "id") AS n, "data"->'registrant'->>'name' AS name FROM "FormRecord" WHERE "family" = 'NCEN' AND NOT "isSample" AND "id" NOT LIKE '%-s%') o
    CROSS JOIN generate_series(${from}::int, ${to - 1}::int) c`;
  await prisma.$executeRaw`
    INSERT INTO "FormRecord" ("id", "accessionNumber", "family", "formType", "cik", "filedAt", "periodOfReport", "orderedAt", "isSample", "parties", "data", "sourceKey")
    SELECT o."id" || '-s' || c, o."accessionNumber" || '-s' || c, o."family", o."formType", lpad((9500000000 + c * 1000 + o.n)::text, 10, '0'), o."filedAt", o."periodOfReport", o."orderedAt", false, o."parties",
      jsonb_set(o."data", '{registrant,cik}', to_jsonb(lpad((9500000000 + c * 1000 + o.n)::text, 10, '0'))), o."sourceKey" || '-s' || c
    FROM (SELECT row_number() OVER (ORDER BY "id") AS n, * FROM "FormRecord" WHERE "family" = 'NCEN' AND NOT "isSample" AND "id" NOT LIKE '%-s%') o
    CROSS JOIN generate_series(${from}::int, ${to - 1}::int) c`;
  await prisma.$executeRawUnsafe('ANALYZE "FormRecord"');
}

type Reader = { prisma: Prisma; cache: { data: ReturnType<typeof createDataCache> } };
/** fresh: a new data cache for every run; else one kept across runs, whose entries live `ttlMs` */
type Cache = { fresh: true } | { fresh: false; ttlMs: number };

/** The times of `runs` reads after a warm-up. */
async function timed(runs: number, cache: Cache, prisma: Prisma, read: (reader: Reader) => Promise<unknown>): Promise<number[]> {
  const kept = { prisma, cache: { data: createDataCache(cache.fresh ? 600_000 : cache.ttlMs) } };
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const reader = cache.fresh ? { prisma, cache: { data: createDataCache(600_000) } } : kept;
    const start = performance.now();
    await read(reader);
    if (i >= 1) times.push(performance.now() - start);
  }
  return times;
}

/** What the previous 13F holders read before matching: every manager's latest period with its whole information tables. */
async function previousHoldersReads(prisma: Prisma) {
  const periods = await prisma.formRecord.findMany({ where: { family: '13F', isSample: false, periodOfReport: { not: null } }, select: { cik: true, periodOfReport: true } });
  const latest = new Map<string, Date>();
  for (const p of periods) if (p.cik && (!latest.has(p.cik) || latest.get(p.cik)! < p.periodOfReport!)) latest.set(p.cik, p.periodOfReport!);
  return prisma.formRecord.findMany({
    where: { family: '13F', isSample: false, OR: [...latest].map(([cik, period]) => ({ cik, periodOfReport: period })) },
    select: { id: true, accessionNumber: true, formType: true, cik: true, filedAt: true, periodOfReport: true, data: true },
  });
}

async function main() {
  await ensureDatabase(databaseUrl, true);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, IDS_STATE_DIR: await mkdtemp(path.join(tmpdir(), 'ids-bench-')), PORT: '0', IDS_AUTO_INGEST: 'off', IDS_DEMO_ORG: 'off', IDS_WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), IDS_REQUEST_RECORDS: 'off' });
  const service = await createService(config, { logger: createLogger('warn') });
  const { prisma } = service.services;
  try {
    const all = folderSource(corpus);
    const began = performance.now();
    const run = await runIngest(service.services, { describe: () => '13F, N-CEN and Apple', async *items() { for await (const item of all.items()) if (/^forms\/(13f|ncen)\/|^submissions\/CIK0000320193\.json$/.test(item.key)) yield item; } });
    console.log(`ingested ${run.written} 13F, N-CEN and submissions documents in ${((performance.now() - began) / 1000).toFixed(1)} s (${run.failed} failed)`);
    console.log(`\n${requests} runs per read after a warm-up, through the resolvers; PostgreSQL. Synthetic managers carry ${quarters} quarters each.`);
    console.log('| scale | 13F filings | 13F rows | N-CEN | advisers | read                                                 |  p50 ms |  p99 ms | previous p50 ms | previous ÷ now |');
    console.log('|------:|------------:|---------:|------:|---------:|------------------------------------------------------|--------:|--------:|----------------:|---------------:|');
    let copies = 1;
    for (const scale of scales) {
      await grow(prisma, copies, scale);
      copies = scale;
      const [size] = await prisma.$queryRaw<{ filings: number; rows: number; ncen: number }[]>`
        SELECT count(*) FILTER (WHERE "family" = '13F')::int AS filings,
               coalesce(sum(CASE WHEN "family" = '13F' AND jsonb_typeof("data"->'holdings') = 'array' THEN jsonb_array_length("data"->'holdings') END), 0)::int AS rows,
               count(*) FILTER (WHERE "family" = 'NCEN')::int AS ncen
        FROM "FormRecord"`;
      let count = 0;
      for (let page = await advisers({ prisma, cache: { data: createDataCache(600_000) } }, { first: 100 }); ; ) {
        count += page.nodes.length;
        if (!page.nextCursor) break;
        page = await advisers({ prisma, cache: { data: createDataCache(600_000) } }, { first: 100, after: page.nextCursor });
      }
      // from 10× on, Bull Street's first synthetic copy, which has all the quarters
      const cik = scale === 1 ? profiled : syntheticBullStreet;
      const shown = (await adviser({ prisma, cache: { data: createDataCache(600_000) } }, { cik, periods: 8, top: 10 })).quarters.length;
      const holders = (await institutionalHolders({ prisma, cache: { data: createDataCache(600_000) } }, { cik: apple, first: 100 })).nodes.length;
      const pastTtl: Cache = { fresh: false, ttlMs: 1 };
      const fresh: Cache = { fresh: true };
      const warm: Cache = { fresh: false, ttlMs: 600_000 };
      // [label, cache, read, the previous implementation's read measured in this run]
      const reads: [string, Cache, (reader: Reader) => Promise<unknown>, ((reader: Reader) => Promise<unknown>)?][] = [
        ['GET /v1/advisers past the TTL (previous: rebuilt)', pastTtl, (reader) => advisers(reader, { first: 25 }), (reader) => advisers({ ...reader, cache: { data: createDataCache(600_000) } }, { first: 25 })],
        ['GET /v1/advisers?q=bull street, warm', warm, (reader) => advisers(reader, { q: 'bull street', first: 25 })],
        [`13F holders of Apple by name (${holders} rows), warm`, warm, (reader) => institutionalHolders(reader, { cik: apple, first: 25 }), (reader) => previousHoldersReads(reader.prisma)],
        [`profile, ${shown} quarters × top 10, cold`, fresh, (reader) => adviser(reader, { cik, periods: 8, top: 10 })],
        [`profile, ${shown} quarters × top 10, warm`, warm, (reader) => adviser(reader, { cik, periods: 8, top: 10 })],
      ];
      for (const [label, cache, read, previous] of reads) {
        const now = await timed(requests, cache, prisma, read);
        const before = previous ? percentile(await timed(requests, cache, prisma, previous), 0.5) : null;
        const p50 = percentile(now, 0.5);
        const compared = before === null ? `${'–'.padStart(15)} | ${'–'.padStart(14)}` : `${before.toFixed(1).padStart(15)} | ${`${(before / p50).toFixed(1)}×`.padStart(14)}`;
        console.log(`| ${`${scale}×`.padStart(5)} | ${String(size!.filings).padStart(11)} | ${String(size!.rows).padStart(8)} | ${String(size!.ncen).padStart(5)} | ${String(count).padStart(8)} | ${label.padEnd(52)} | ${p50.toFixed(1).padStart(7)} | ${percentile(now, 0.99).toFixed(1).padStart(7)} | ${compared} |`);
      }
    }
  } finally {
    await service.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
