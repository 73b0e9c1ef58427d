// `npm start` and `npm run ids` run compiled JavaScript: one bundle each of our own code (packages
// stay in node_modules), built in about a second. Plain .mjs, so that it needs no TypeScript loader.
// Each file is written aside and renamed into place, so a process starting while another builds
// never reads half a bundle.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts', 'server/cli.ts'],
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
