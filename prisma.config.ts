import { defineConfig } from 'prisma/config';

// `prisma generate` is the only Prisma CLI command the project runs; migrations go through
// prisma/migrate.ts (the WebAssembly schema engine), so no datasource URL is configured here.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
