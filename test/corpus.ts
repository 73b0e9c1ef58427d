// The real SEC corpus (../shared/data, or IDS_CORPUS_DIR). Suites that read it run wherever it
// exists (always in CI); the project's own fixtures in test/fixtures keep the rest meaningful
// on a machine without it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderSource } from '../ingest/sources/folder.ts';
import type { Source } from '../ingest/sources/types.ts';

export const corpusDir = path.resolve(process.env.IDS_CORPUS_DIR ?? fileURLToPath(new URL('../../shared/data', import.meta.url)));
export const hasCorpus = existsSync(path.join(corpusDir, 'MANIFEST.md'));

export function corpusFile(relative: string): Promise<string> {
  return readFile(path.join(corpusDir, relative), 'utf8');
}

export function fixture(relative: string): Promise<string> {
  return readFile(fileURLToPath(new URL(`./fixtures/${relative}`, import.meta.url)), 'utf8');
}

/** The corpus's files whose path below it matches `pattern`, as an ingest source. */
export function corpusSubset(pattern: RegExp): Source {
  const all = folderSource(corpusDir);
  return {
    describe: () => `${all.describe()} (${pattern})`,
    async *items() {
      for await (const item of all.items()) if (pattern.test(item.key)) yield item;
    },
  };
}
