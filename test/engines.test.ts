// package.json's `engines` is a promise to whoever installs the service: every Node version it
// names runs every installed package, as each package declares it (npm warns EBADENGINE otherwise).
// Packages that would need a newer Node are held at versions that run here (package.json
// `overrides`).
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

it('names only Node versions that every locked package declares it runs on, this one among them', () => {
  const ours: string = read('package.json').engines.node;
  const packages: Record<string, { version?: string; engines?: { node?: string } }> = read('package-lock.json').packages;
  const narrower = Object.entries(packages)
    .filter(([, p]) => p.engines?.node && !semver.subset(ours, p.engines.node))
    .map(([where, p]) => `${where.replace(/^.*node_modules\//, '')}@${p.version}: ${p.engines!.node}`);
  expect(narrower).toEqual([]);
  expect(semver.satisfies(process.version, ours)).toBe(true);
});
