// `npm run bench:bulk`: corpus:scale archives of factor BENCH_FACTOR (default 10) in a temporary
// folder, bulk-ingested into a fresh PostgreSQL database (BENCH_DATABASE, default ids_bench_bulk, on
// DATABASE_URL's server, else on 127.0.0.1), then the same archives again. Prints the load's fact rows per second, the
// derived build's, the total time, the database's size and bytes per fact, and peak RSS.
import path from 'node:path';
import { bulkSummaryLine } from '../ingest/bulk/run.ts';
import { loadReport, measureBulkLoad } from './benchBulkLoad.ts';

const factor = Number(process.env.BENCH_FACTOR ?? 10);
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? '../shared/data');
const url = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${process.env.BENCH_DATABASE ?? 'ids_bench_bulk'}`;

const measured = await measureBulkLoad({ corpus, factor, databaseUrl: url.toString() });
const { scale } = measured;
console.log(`archives: factor ${factor}, ${scale.companies} real companies, ${scale.members.companyfacts} companyfacts + ${scale.members.submissions} submissions members, written in ${measured.archiveSeconds.toFixed(1)} s`);
console.log(bulkSummaryLine(measured.summary));
for (const line of loadReport(measured)) console.log(line);
