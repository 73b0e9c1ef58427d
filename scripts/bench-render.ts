// `npm run bench:render`: the filing reader's render of the largest NVIDIA 10-K in the corpus, as
// the route runs it (the stored gzip unzipped, parsed, cleaned, headings anchored), in each format:
// p50 of a first render (a key the cache has not seen, BENCH_ROUNDS times) and of a cached one
// (BENCH_REQUESTS times), and their ratio. In process, without HTTP: the figures are the renderer's.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { renderFormats, renderStoredDocument } from '../derived/render/index.ts';
import { splitSections } from '../ingest/parsers/documents/sections.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(process.env.IDS_CORPUS_DIR ?? path.join(root, '..', 'shared', 'data'));
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const folder = path.join(corpus, 'filings', '10k');
const nvidia = readdirSync(folder).filter((name) => /NVDA/i.test(name)).map((name) => path.join(folder, name));
if (!nvidia.length) throw new Error(`no NVIDIA 10-K in ${folder}`);
const largest = nvidia.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
const text = readFileSync(largest, 'utf8');
const stored = gzipSync(Buffer.from(text, 'utf8'));
const sha256 = createHash('sha256').update(text).digest('hex');
const sectionKeys = splitSections('10-K', text).map((s) => s.key);
console.log(`${path.basename(largest)}: ${(text.length / 1e6).toFixed(2)} MB, ${sectionKeys.length} sections; first render p50 of ${rounds}, cached p50 of ${requests}`);

const input = (key: string) => ({ sha256: key, form: '10-K', sectionKeys, document: async () => gunzipSync(stored).toString('utf8') });
for (const format of renderFormats) {
  const first: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const answer = await renderStoredDocument(input(`${sha256}:bench:${round}`), format);
    first.push(performance.now() - started);
    if (answer.cached) throw new Error('a first render was answered from the cache');
  }
  const cached: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const answer = await renderStoredDocument(input(`${sha256}:bench:0`), format);
    cached.push(performance.now() - started);
    if (!answer.cached) throw new Error('a repeated render was not cached');
  }
  const [firstMs, cachedMs] = [p50(first), p50(cached)];
  console.log(`${format.padEnd(8)} first ${firstMs.toFixed(1)} ms  cached ${(cachedMs * 1000).toFixed(1)} µs  ratio ${Math.round(firstMs / cachedMs).toLocaleString('en-US')}×`);
}
