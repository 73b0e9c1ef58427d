// `npm start` and `npm run ids` run compiled JavaScript: one bundle each, built in a few seconds,
// of our own code and the packages it imports. Node's loader resolves, reads and links each module
// file on its own, and a start loaded about two thousand of them (GraphQL, Pothos, zod, yoga and
// theirs): bundled, the same start took 0.6 s less. Packages that find files beside their own
// (WebAssembly, worker scripts), load native add-ons if present, or are imported only when used
// stay in node_modules. Plain .mjs, so that it needs no TypeScript loader.
// The analytics worker threads load a bundle of their own, dist/analytics-worker.js, which
// resolvers/analytics/pool.ts finds beside the bundle it runs in; the startup ingest's thread on
// PostgreSQL, dist/ingest-worker.js (server/ingestThread.ts); the bulk ingest's prepare threads,
// dist/bulk-prepare-worker.js (ingest/bulk/preparePool.ts); an ingest's parse thread,
// dist/ingest-parse-worker.js (ingest/parsers.ts).
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
const bundles = { main: 'server/main.ts', cli: 'server/cli.ts', 'analytics-worker': 'resolvers/analytics/worker.ts', 'ingest-worker': 'server/ingestWorker.ts', 'bulk-prepare-worker': 'ingest/bulk/prepareWorker.ts', 'ingest-parse-worker': 'ingest/parseWorker.ts' };
const stamp = path.join(root, 'dist', '.server-build-stamp');

/** Imported from node_modules at run time rather than bundled (a name ending in / is a scope). */
const external = [
  // WebAssembly and data files found beside the package's own modules
  '@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/', 'prisma', 'highs',
  // worker scripts started by file name
  'piscina', 'pino', 'thread-stream',
  // optional native add-ons, required when installed
  'pg', 'pg-copy-streams', 'ws', 'bufferutil', 'utf-8-validate',
  // imported only when used: GraphiQL's page (9 MB), Redis, Stripe, mail, OpenID, tracing export
  '@graphql-yoga/render-graphiql', 'ioredis', 'stripe', 'nodemailer', 'jwks-rsa', 'openid-client', '@opentelemetry/',
  // build tools
  'esbuild', 'vite', '@vitejs/', 'tsx',
];
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const isExternal = (name) => external.some((entry) => (entry.endsWith('/') ? name.startsWith(entry) : name === entry));
const keepInNodeModules = {
  name: 'keep-in-node-modules',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('node:') || isExternal(packageOf(args.path)) ? { external: true } : undefined));
  },
};

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
    plugins: [keepInNodeModules],
    // CommonJS packages in an ES module bundle call require for Node's own modules
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    sourcemap: true,
    // stack traces need the mappings, not a copy of every source (which made the map 16 MB, parsed at each start)
    sourcesContent: false,
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
