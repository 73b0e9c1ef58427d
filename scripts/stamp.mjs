// What a build is made from, as one hash: a build whose stamp holds the same hash is current and is
// not made again. Hashing a few hundred files takes milliseconds; building takes seconds. Plain
// .mjs, like the build scripts that use it.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Every file under a folder, at any depth. */
export async function filesUnder(folder) {
  const found = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(full)));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** One hash of the files' names (relative to `root`) and contents, whatever order they come in. */
export async function hashFiles(root, files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(await readFile(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash a build was stamped with, or null when it has none. */
export async function readStamp(file) {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    return null;
  }
}

export const writeStamp = (file, hash) => writeFile(file, `${hash}\n`);
