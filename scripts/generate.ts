// `npm run generate`: every generated file, in dependency order. CI runs it and fails when
// the result differs from what is committed.
//   1. Prisma client and Pothos types      (prisma/schema.prisma  -> prisma/generated/)
//   2. the printed GraphQL schema          (schema/*.ts           -> schema/schema.graphql)
//   3. typed persisted operations          (catalogue/operations/*.graphql -> catalogue/operations/generated.ts)
//      and the dashboard's typed documents (graphql() in dashboard/src/**/*.tsx -> dashboard/src/gql/)
//   4. the OpenAPI snapshot                (route table           -> rest/sec-api.v1.json)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  execFileSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

// `prisma generate` does not use the native schema engine, but downloads it unless told where
// one is; any existing file satisfies it, and migrations go through prisma/migrate.ts instead.
run('npx', ['prisma', 'generate'], { PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url), PRISMA_HIDE_UPDATE_MESSAGE: '1' });
run('npx', ['tsx', 'scripts/print-schema.ts']);
run('npx', ['graphql-codegen', '--config', 'codegen.ts', '--silent']);
run('npx', ['tsx', 'scripts/print-openapi.ts']);
