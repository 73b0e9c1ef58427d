// Where a worker thread's entry is, and how the thread loads it. Run from source (tsx, vitest),
// the entry is a TypeScript module beside the code that starts the thread, and the thread needs
// tsx's loader to read it (vitest's own transform does not reach threads): piscina's thread
// imports the entry once `--import tsx` has registered that loader. In the bundles `npm start`
// and `npm run ids` run, that code is inside a bundle and the entry is a bundle of its own beside
// it (scripts/build.mjs).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ThreadEntry {
  filename: string;
  execArgv?: string[];
}

/** `callerUrl`: the import.meta.url of the module starting the thread; `source` beside it, `bundle` beside the bundle. */
export function threadEntry(callerUrl: string, source: string, bundle: string): ThreadEntry {
  if (new URL(callerUrl).pathname.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(callerUrl).resolve('tsx')).href;
    return { filename: new URL(source, callerUrl).href, execArgv: ['--import', tsx] };
  }
  return { filename: new URL(`./${bundle}`, callerUrl).href };
}

/** A bundle built without its worker fails where the thread is asked for, with what to do. */
export function assertEntryExists(entry: ThreadEntry, what: string, otherwise?: string): void {
  if (!existsSync(fileURLToPath(entry.filename))) throw new Error(`the ${what} ${fileURLToPath(entry.filename)} is missing: build with scripts/build.mjs${otherwise ? `, or ${otherwise}` : ''}`);
}
