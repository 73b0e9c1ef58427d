// `npm start` and `npm run ids` run scripts/build.mjs first, every time: with nothing changed it
// builds nothing, so a CLI command does not pay for a bundle it already has.
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { root } from './support/processes.ts';

const build = () => promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: root });
const built = async () => Promise.all(['main.js', 'cli.js', 'analytics-worker.js'].map(async (name) => (await stat(path.join(root, 'dist', name))).mtimeMs));

it('builds the service bundles once, and not again while no source changed', { timeout: 120_000 }, async () => {
  await build();
  const first = await built();
  await build();
  expect(await built()).toEqual(first);
});
