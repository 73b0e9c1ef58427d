// A new embedded database starts as a copy of one with this build's schema. PGlite creates a data
// directory by running initdb in WebAssembly, which takes ten seconds or more on a busy machine,
// and the schema takes seconds more; copying the 40 MB they leave behind takes a fraction of one.
// Both are kept under node_modules/.cache: the empty directory once per PGlite version, the
// migrated one once per set of migrations (made from the empty one, in one step).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants, copyFile, mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { migrationChecksum, migrationScripts, oneStepSchemaScript } from './migrate.ts';

// One level up from prisma/ (under tsx) and from dist/ (the bundle): the project root.
const cacheDir = fileURLToPath(new URL('../node_modules/.cache/ids-pglite/', import.meta.url));

/** A folder PGlite has made a database in holds PG_VERSION; one without it is new. */
export const holdsDatabase = (dataDir: string) => existsSync(path.join(dataDir, 'PG_VERSION'));

async function pgliteVersion(): Promise<string> {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const manifest = await readFile(path.join(dir, 'package.json'), 'utf8').then((text) => JSON.parse(text) as { name?: string; version?: string }, () => null);
    if (manifest?.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/**
 * Copies a folder's files all at once (fs.cp goes one by one, taking seconds over the 1,200 small
 * files of a data directory); a clone where the file system can make one.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const relative = (entry: (typeof entries)[number]) => path.relative(from, path.join(entry.parentPath, entry.name));
  await mkdir(to, { recursive: true });
  for (const entry of entries) if (entry.isDirectory()) await mkdir(path.join(to, relative(entry)), { recursive: true });
  await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => copyFile(path.join(from, relative(entry)), path.join(to, relative(entry)), constants.COPYFILE_FICLONE)));
}

/** Makes a data directory at `template` with `fill`, unless one is there; returns its path. */
async function makeOnce(template: string, fill: (making: string) => Promise<void>): Promise<string> {
  if (holdsDatabase(template)) return template;
  // Made beside it and renamed into place, so a process starting meanwhile never copies half of one.
  const making = `${template}.${process.pid}.${Date.now()}`;
  await mkdir(path.dirname(template), { recursive: true });
  try {
    await fill(making);
    await rename(making, template).catch((error: NodeJS.ErrnoException) => {
      if (!holdsDatabase(template)) throw error; // another process put its own in place first
    });
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return template;
}

/** This PGlite version's empty data directory, and one with this build's migrations applied. */
export async function schemaTemplate(): Promise<string> {
  const version = await pgliteVersion();
  const migrations = await migrationScripts();
  const key = createHash('sha256')
    .update(migrations.map((m) => `${m.name} ${migrationChecksum(m.sql)}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const empty = await makeOnce(path.join(cacheDir, `${version}-empty`), async (making) => {
    await (await PGlite.create(making)).close();
  });
  const migrated = path.join(cacheDir, `${version}-${key}`);
  if (holdsDatabase(migrated)) return migrated;
  await makeOnce(migrated, async (making) => {
    await copyTree(empty, making);
    const pglite = await PGlite.create(making);
    try {
      await pglite.exec(oneStepSchemaScript(migrations));
    } finally {
      await pglite.close();
    }
  });
  // The templates of earlier migrations are of no more use.
  for (const name of await readdir(cacheDir)) {
    if (name.startsWith(`${version}-`) && !name.includes('.') && ![path.basename(empty), path.basename(migrated)].includes(name)) {
      await rm(path.join(cacheDir, name), { recursive: true, force: true });
    }
  }
  return migrated;
}

/** Fills a folder that holds no database yet with a copy of the empty one; leaves any other alone. */
export async function prepareDataDir(dataDir: string): Promise<void> {
  if (dataDir.startsWith('memory://') || holdsDatabase(dataDir)) return;
  // Copied beside it and renamed into place (over an empty folder, which rename replaces), so a
  // copy cut short never looks like a database.
  const copying = `${dataDir}.${process.pid}.${Date.now()}`;
  try {
    await copyTree(await schemaTemplate(), copying);
    await rename(copying, dataDir);
  } catch {
    // No cache to write to (a read-only install), or the folder has other files: PGlite makes the database itself, only slower.
  } finally {
    await rm(copying, { recursive: true, force: true });
  }
}
