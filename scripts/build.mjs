// `npm start` and `npm run ids` run compiled JavaScript: one bundle each of our own code (packages
// stay in node_modules), built in about a second. Plain .mjs, so that it needs no TypeScript loader.
// The analytics worker threads load a bundle of their own, dist/analytics-worker.js, which
// resolvers/analytics/pool.ts finds beside the bundle it runs in.
// Each file is written aside and renamed into place, so a process starting while another builds
// never reads half a bundle.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildDashboard } from './build-dashboard.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts', cli: 'server/cli.ts', 'analytics-worker': 'resolvers/analytics/worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  write: false,
  logLevel: 'warning',
});
await mkdir(path.join(root, 'dist'), { recursive: true });
for (const file of result.outputFiles) {
  const aside = `${file.path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(aside, file.contents);
  await rename(aside, file.path);
}
// The dashboard (Vite, into dist/dashboard), only when its sources or the installed packages
// changed since it was last built: otherwise this costs a hash of its files.
await buildDashboard();
