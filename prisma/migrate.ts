// Real Prisma migrations without the native schema engine (which would need a download):
// the same engine as WebAssembly, driven through our driver adapter. `applyPending` is what
// `npm start`, the tests and `ids migrate` run; `createMigration` is `ids migration:create`.
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

// Found from the project root, one level up: this module runs from prisma/ under tsx and from
// dist/ (the bundle `npm start` runs), both of which sit one level under the root.
const prismaDir = fileURLToPath(new URL('../prisma/', import.meta.url));
export const schemaPath = path.join(prismaDir, 'schema.prisma');
export const migrationsDir = path.join(prismaDir, 'migrations');
const noFilters = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<void> | undefined;

/** Node 20 cannot `import` a .wasm module without a flag, so the bytes are instantiated here. */
function loadEngineWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      './schema_engine_bg.js': engineBindings as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as unknown as { __wbindgen_start(): void };
    (engineBindings as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return wasmReady;
}

async function withEngine<T>(factory: SqlMigrationAwareDriverAdapterFactory, run: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  await loadEngineWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const log = () => {};
  const engine = await engineBindings.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, log, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await run(engine);
  } finally {
    engine.free();
  }
}

export async function readMigrations(): Promise<MigrationList> {
  const names = (await readdir(migrationsDir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8').then(
            (ok) => ({ tag: 'ok' as const, value: ok }),
            (error: Error) => ({ tag: 'error' as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

/** Applies every migration the database has not seen yet; returns their names. */
export async function applyPending(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const migrationsList = await readMigrations();
  return withEngine(factory, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
}

/**
 * Diffs prisma/schema.prisma against the existing migrations and writes the difference as a new
 * migration folder; returns its name, or null when they already agree. The engine's own shadow
 * database is not available to the WebAssembly build, so the migrations are replayed on a
 * throwaway in-memory PGlite (`shadow`) and that database is diffed against the schema.
 */
export async function createMigration(shadow: SqlMigrationAwareDriverAdapterFactory, name: string, now = new Date()): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('a migration name is lower-case letters, digits and underscores');
  await applyPending(shadow);
  const schema = await readFile(schemaPath, 'utf8');
  const files = [{ path: schemaPath, content: schema }];
  const script = await withEngine(shadow, async (engine) => {
    const out = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: prismaDir },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      filters: noFilters,
    });
    return out.exitCode === 2 ? out.stdout : null;
  });
  if (!script) return null;
  const folder = `${now.toISOString().replace(/\D/g, '').slice(0, 14)}_${name}`;
  await mkdir(path.join(migrationsDir, folder), { recursive: true });
  await writeFile(path.join(migrationsDir, folder, 'migration.sql'), script);
  await writeFile(path.join(migrationsDir, 'migration_lock.toml'), '# Written by `ids migration:create`; keep it in version control.\nprovider = "postgresql"\n');
  return folder;
}
