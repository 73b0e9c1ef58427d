// Real Prisma migrations without the native schema engine (which would need a download):
// the same engine as WebAssembly, driven through our driver adapter. `applyPending` is what
// `npm start`, the tests and `ids migrate` run; `createMigration` is `ids migration:create`.
import { createHash, randomUUID } from 'node:crypto';
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
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
export async function applyPending(factory: SqlMigrationAwareDriverAdapterFactory, migrations?: MigrationList): Promise<string[]> {
  const migrationsList = migrations ?? (await readMigrations());
  return withEngine(factory, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
}

/** The checksum the engine records for a migration: the sha256 of its migration.sql, in hex. */
export const migrationChecksum = (sql: string) => createHash('sha256').update(sql).digest('hex');

/** The lock the engine holds while it migrates; taking it too keeps a one-step setup and the engine apart. */
const engineLock = 72707369;

/** The engine's bookkeeping table, as the engine itself creates it on PostgreSQL. */
const migrationTable = `CREATE TABLE "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * A new, empty database gets every migration as one script: the engine's table, each migration's
 * SQL in order, and the rows the engine would have written for them (one step each, finished).
 * Sent as one simple query, it is one transaction: it all goes in, or nothing does (another
 * instance that set the schema up meanwhile makes the table's creation fail). Replaying them one
 * by one through the engine costs seconds; this, a fraction of one.
 */
export function oneStepSchemaScript(migrations: { name: string; sql: string }[]): string {
  const parts = [`SELECT pg_advisory_xact_lock(${engineLock})`, migrationTable];
  for (const { sql } of migrations) parts.push(sql);
  if (migrations.length) {
    const rows = migrations.map(({ name, sql }) => `(${quoteLiteral(randomUUID())}, ${quoteLiteral(migrationChecksum(sql))}, now(), ${quoteLiteral(name)}, now(), 1)`);
    parts.push(`INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES\n${rows.join(',\n')}`);
  }
  // Each migration ends with its own statement terminator, or not: a line break and one more keep them apart.
  return parts.map((part) => `${part.trimEnd()}\n;\n`).join('');
}

/** This build's migrations: folder name and SQL, in order. */
export async function migrationScripts(): Promise<{ name: string; sql: string }[]> {
  const list = await readMigrations();
  return list.migrationDirectories.map((dir) => {
    if (dir.migrationFile.content.tag === 'error') throw new Error(`migration ${dir.path}: ${dir.migrationFile.content.value}`);
    return { name: dir.path, sql: dir.migrationFile.content.value };
  });
}

/** The connection beneath Prisma (adapter.ts's RawConnection), as far as a script needs it. */
type ScriptConnection = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: { exec(sql: string): Promise<unknown> } };

/** Runs a script of many statements as one simple query: one transaction, all or nothing. */
async function runScript(raw: ScriptConnection, sql: string): Promise<void> {
  if (raw.kind === 'pglite') {
    await raw.pglite.exec(sql);
    return;
  }
  const client = new pg.Client({ connectionString: raw.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Sets up an empty database's schema in one step (oneStepSchemaScript); returns the migrations
 * applied, or null when it could not (another instance set it up meanwhile, say): then the
 * engine takes over, and finds what is left to do.
 */
export async function applyAllInOneStep(raw: ScriptConnection): Promise<string[] | null> {
  const migrations = await migrationScripts();
  try {
    await runScript(raw, oneStepSchemaScript(migrations));
  } catch {
    return null;
  }
  return migrations.map((m) => m.name);
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
