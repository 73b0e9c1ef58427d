// What a first visit to the dashboard downloads in JavaScript: the scripts dist/dashboard/index.html
// loads (its module entry and the chunks it preloads), raw and gzipped (level 9, as the service
// sends them precompressed). `node scripts/dashboard-size.mjs` prints it; the dashboard's tests
// hold it under the budget.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function firstLoadJavaScript(dir = path.join(root, 'dist', 'dashboard')) {
  const html = await readFile(path.join(dir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  const files = [];
  for (const url of urls) {
    const bytes = await readFile(path.join(dir, url.replace(/^\/dashboard\//, '')));
    files.push({ url, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
  }
  return { files, bytes: files.reduce((a, f) => a + f.bytes, 0), gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const size = await firstLoadJavaScript();
  for (const f of size.files) console.log(`${f.url}  ${(f.bytes / 1024).toFixed(1)} KB, ${(f.gzipBytes / 1024).toFixed(1)} KB gzipped`);
  console.log(`first load: ${(size.bytes / 1024).toFixed(1)} KB of JavaScript, ${(size.gzipBytes / 1024).toFixed(1)} KB gzipped`);
}
