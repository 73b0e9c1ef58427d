import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Suites under test/redis/ exercise several instances sharing one Redis; they are part of the
// run whenever REDIS_URL names one (CI's server-mode run), and absent from an embedded run.
const redisSuites = process.env.REDIS_URL ? [] : ['test/redis/**'];
// Suites under test/server/ need a database server (several sessions writing at once); they run
// whenever DATABASE_URL names one.
const serverSuites = process.env.DATABASE_URL ? [] : ['test/server/**'];

// Node (and so every dependency) loads graphql's CommonJS entry; Vite would give our own code
// its `module` entry, a second copy of graphql that rejects the first one's schema.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', ...redisSuites, ...serverSuites],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // On the embedded database each test service has its own PGlite, so two files at a time keep
    // both cores busy (vitest's default on 2 cores is one). Against a database server, one at a
    // time: suites share the server, and an open transaction in one holds back what the event log
    // shows another (its reads wait for every older transaction on the server).
    maxWorkers: process.env.DATABASE_URL ? 1 : Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it loaded from one file to the next instead of loading the app (and
    // building the GraphQL schema) again for each: that was a third of the run. Suites share no
    // module state they change: every test service is made fresh by the harness.
    isolate: false,
  },
});
