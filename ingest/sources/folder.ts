// A folder laid out like the shared corpus (submissions/, companyfacts/, filings/, index/, ...):
// every data file below it, in sorted order so that two runs see the same sequence. The
// corpus's own paperwork (MANIFEST.md, README files) and hidden files are not data.
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Source, SourceItem } from './types.ts';

export function folderSource(root: string): Source {
  const base = path.resolve(root);
  return {
    describe: () => `folder ${base}`,
    async *items() {
      for (const key of (await filesBelow(base, '')).sort(byCodePoint)) {
        yield fileItem(base, key);
      }
    },
  };
}

function isData(name: string): boolean {
  return !name.startsWith('.') && name !== 'MANIFEST.md' && !/^readme(\.|$)/i.test(name);
}

async function filesBelow(base: string, relative: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(base, relative), { withFileTypes: true });
  } catch (error) {
    throw new Error(`folder source: cannot list ${path.join(base, relative)}: ${(error as Error).message}`);
  }
  const keys: string[] = [];
  for (const entry of entries) {
    if (!isData(entry.name)) continue;
    const key = relative ? `${relative}/${entry.name}` : entry.name;
    // A symbolic link counts as what it points to.
    const isDirectory = entry.isSymbolicLink() ? (await stat(path.join(base, key))).isDirectory() : entry.isDirectory();
    if (isDirectory) keys.push(...(await filesBelow(base, key)));
    else if (entry.isFile() || entry.isSymbolicLink()) keys.push(key);
  }
  return keys;
}

function fileItem(base: string, key: string): SourceItem {
  return {
    key,
    name: key.slice(key.lastIndexOf('/') + 1),
    read: () => readFile(path.join(base, ...key.split('/')), 'utf8'),
  };
}

/** Plain code-point order, the same on every machine (localeCompare depends on the locale). */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
