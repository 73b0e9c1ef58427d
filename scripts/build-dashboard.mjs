// The dashboard's build (Vite) into dist/dashboard/, run by scripts/build.mjs at every `npm start`
// and only when something it is built from changed: its sources, and the installed packages
// (package-lock.json). Checking that is a hash of a few dozen files, milliseconds; Vite itself is
// loaded only to build. Plain .mjs, like build.mjs.
//
// The build goes to a folder of its own and is renamed into place, so a server never serves half
// of one, and two starts building at once each end with a whole build. Every file is also written
// precompressed (.br, .gz) for the server to send as is.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { filesUnder, hashFiles, readStamp, writeStamp } from './stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const dashboardSource = path.join(root, 'dashboard');
export const dashboardOutput = path.join(root, 'dist', 'dashboard');
const stampFile = '.build-stamp';

/** A hash of everything the build reads: the dashboard's files, this script, and the installed versions. */
export async function inputsHash() {
  const files = [...(await filesUnder(dashboardSource)), fileURLToPath(import.meta.url), path.join(root, 'package-lock.json')].filter((file) => !file.endsWith(stampFile));
  return hashFiles(root, files);
}

const builtHash = () => readStamp(path.join(dashboardOutput, stampFile));

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

async function precompress(folder) {
  for (const file of await filesUnder(folder)) {
    if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
    const bytes = await readFile(file);
    if (bytes.length < 1024) continue;
    await writeFile(`${file}.br`, await compressBrotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
    await writeFile(`${file}.gz`, await compressGzip(bytes, { level: 9 }));
  }
}

/** Builds unless dist/dashboard was built from exactly these inputs; says whether it built. */
export async function buildDashboard({ force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const hash = await inputsHash();
  if (!force && (await builtHash()) === hash) return { built: false, hash };
  const started = Date.now();
  // Vite picks packages' builds, React's JSX runtime and process.env.NODE_ENV in the bundle by
  // this, whatever the caller had (a test runner sets `test`): development builds are three times
  // the size.
  process.env.NODE_ENV = 'production';
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  const staging = path.join(root, 'dist', `.dashboard-${randomBytes(4).toString('hex')}`);
  try {
    await build({
      configFile: false,
      root: dashboardSource,
      base: '/dashboard/',
      mode: 'production',
      logLevel: 'warn',
      plugins: [react()],
      build: {
        outDir: staging,
        emptyOutDir: true,
        assetsDir: 'assets',
        target: 'es2022',
        sourcemap: true,
        // the polyfill is for browsers older than the target
        modulePreload: { polyfill: false },
        // every asset is a file of its own: a data: URL inlined in CSS or JS would need the CSP to allow it
        assetsInlineLimit: 0,
        reportCompressedSize: false,
      },
    });
    await precompress(staging);
    await writeStamp(path.join(staging, stampFile), hash);
    // Swap: the old build aside, the new one in, the old one gone.
    const aside = `${dashboardOutput}.old-${randomBytes(4).toString('hex')}`;
    await rename(dashboardOutput, aside).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
    try {
      await rename(staging, dashboardOutput);
    } catch (error) {
      // another start put its own build in place meanwhile: it is built from the same inputs
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || (await builtHash()) !== hash) throw error;
    }
    await rm(aside, { recursive: true, force: true });
  } finally {
    if (existsSync(staging)) await rm(staging, { recursive: true, force: true });
  }
  log(`dashboard built in ${((Date.now() - started) / 1000).toFixed(1)} s (dist/dashboard)`);
  return { built: true, hash };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDashboard({ force: process.argv.includes('--force') });
}
