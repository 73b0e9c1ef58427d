// `npm start` and `npm run ids` run compiled JavaScript: one bundle each of our own code (packages
// stay in node_modules), built in about a second. Plain .mjs, so that it needs no TypeScript loader.
// The analytics worker threads load a bundle of their own, dist/analytics-worker.js, which
// resolvers/analytics/pool.ts finds beside the bundle it runs in; the startup ingest's thread on
// PostgreSQL, dist/ingest-worker.js (server/ingestThread.ts).
// Each file is written aside and renamed into place, so a process starting while another builds
// never reads half a bundle. Nothing is built when nothing it is made from changed since the last
// build (a hash of the sources, milliseconds): every `npm start` and `npm run ids` runs this.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboard } from './build-dashboard.mjs';
import { filesUnder, hashFiles, readStamp, writeStamp } from './stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceFolders = ['core', 'prisma', 'subscriptions', 'ingest', 'derived', 'resolvers', 'schema', 'catalogue', 'rest', 'graphql', 'workers', 'server'];
const bundles = { main: 'server/main.ts', cli: 'server/cli.ts', 'analytics-worker': 'resolvers/analytics/worker.ts', 'ingest-worker': 'server/ingestWorker.ts' };
const stamp = path.join(root, 'dist', '.server-build-stamp');

const inputs = [fileURLToPath(import.meta.url), path.join(root, 'package-lock.json'), path.join(root, 'tsconfig.json')];
for (const folder of sourceFolders) inputs.push(...(await filesUnder(path.join(root, folder))));
const hash = await hashFiles(root, inputs);
const current = (await readStamp(stamp)) === hash && Object.keys(bundles).every((name) => existsSync(path.join(root, 'dist', `${name}.js`)));
if (!current) await buildServer();
// The dashboard (Vite, into dist/dashboard), only when its sources or the installed packages
// changed since it was last built: otherwise this costs a hash of its files.
await buildDashboard();

async function buildServer() {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: bundles,
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
  await writeStamp(stamp, hash);
}
