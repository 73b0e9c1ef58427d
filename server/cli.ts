// `npm run ids -- <command>`: operator tasks against the configured database
// (the same environment as `npm start`: IDS_STATE_DIR, DATABASE_URL).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openAdapter, describeTarget } from '../prisma/adapter.ts';
import { openDatabase } from '../prisma/db.ts';
import { createMigration } from '../prisma/migrate.ts';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import { addMember, createOrganization } from '../resolvers/orgs.ts';
import { localSessionSecret, mintLocalSession } from '../resolvers/sessions.ts';
import { runIngest, summaryLine, terminalProgress } from '../ingest/run.ts';
import { sourceFor } from '../ingest/sources/index.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';

interface Command {
  usage: string;
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals?: number;
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<void>;
}

const config = loadConfig();
const say = (line: string) => process.stdout.write(`${line}\n`);

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase(config.database);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    help: 'Apply pending migrations from prisma/migrations and seed the reference data (plans, meter classes).',
    options: {},
    run: () =>
      withDatabase(async (db) => {
        say(db.appliedMigrations.length ? `applied: ${db.appliedMigrations.join(', ')}` : 'database is up to date');
        say(`database: ${describeTarget(config.database)}`);
      }),
  },
  'migration:create': {
    usage: 'migration:create <name>',
    help: 'Diff prisma/schema.prisma against prisma/migrations and write the difference as prisma/migrations/<timestamp>_<name>/migration.sql. Needs no database: the migrations are replayed on a throwaway embedded one.',
    options: {},
    positionals: 1,
    async run(_values, [name]) {
      const shadow = await openAdapter({ kind: 'pglite', dataDir: 'memory://' });
      try {
        const created = await createMigration(shadow.factory, name!);
        say(created ? `created prisma/migrations/${created}/migration.sql` : 'no changes: the schema and the migrations agree');
      } finally {
        await shadow.close();
      }
    },
  },
  'orgs:create': {
    usage: 'orgs:create <name> [--plan <key>]',
    help: 'Create an organization (on the starter grant unless --plan names another plan) and print its id.',
    options: { plan: { type: 'string' } },
    positionals: 1,
    run: (values, [name]) =>
      withDatabase(async ({ prisma }) => {
        const org = await createOrganization(prisma, name!, { planKey: values.plan as string | undefined });
        say(org.id);
      }),
  },
  'keys:create': {
    usage: 'keys:create --org <id> [--name <label>]',
    help: 'Create an API key in the organization and print its secret. The secret is shown only this once.',
    options: { org: { type: 'string' }, name: { type: 'string' } },
    run: (values) =>
      withDatabase(async ({ prisma }) => {
        if (!values.org) throw new Error('--org is required');
        const org = await prisma.organization.findUnique({ where: { id: values.org as string } });
        if (!org) throw new Error(`no organization ${values.org}`);
        const bus = createEventBus(undefined, createLogger('silent'));
        const { apiKey, secret } = await issueApiKey({ prisma, bus }, org.id, (values.name as string | undefined) ?? 'cli key');
        say(`${apiKey.id} ${apiKey.hint}`);
        say(secret);
      }),
  },
  ingest: {
    usage: 'ingest --source <folder|URL> [--tickers AAPL,NVDA] [--ciks 320193] [--index-dates 2024-01-02] [--index-quarters 2024Q1] [--user-agent "Name email"]',
    help: 'Load SEC data: a folder laid out like ../shared/data, or the SEC over HTTP (https://www.sec.gov) for the named tickers or CIKs and daily/quarterly form indexes, at most 10 requests a second with the User-Agent from --user-agent or IDS_SEC_USER_AGENT. Running it again changes only what changed. Prints one summary line; failed items are listed by ingest:failures.',
    options: { source: { type: 'string' }, tickers: { type: 'string' }, ciks: { type: 'string' }, 'index-dates': { type: 'string' }, 'index-quarters': { type: 'string' }, 'user-agent': { type: 'string' } },
    run: (values) =>
      withDatabase(async ({ prisma }) => {
        if (!values.source) throw new Error('--source is required');
        const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
        const list = (v: unknown) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
        const source = sourceFor(
          {
            source: values.source as string,
            tickers: list(values.tickers),
            ciks: list(values.ciks),
            indexDates: list(values['index-dates']),
            indexQuarters: list(values['index-quarters']),
            userAgent: (values['user-agent'] as string | undefined) ?? process.env.IDS_SEC_USER_AGENT,
          },
          { prisma, logger },
        );
        const summary = await runIngest({ prisma, bus: createEventBus(undefined, logger), logger }, source, terminalProgress());
        say(summaryLine(summary));
      }),
  },
  'ingest:failures': {
    usage: 'ingest:failures [--limit <n>]',
    help: 'List the items the last ingests could not load (failed), or loaded with parts left out (partial), with the reason.',
    options: { limit: { type: 'string' } },
    run: () =>
      withDatabase(async ({ prisma }) => {
        const failed = await prisma.ingestItem.findMany({ where: { status: { in: ['failed', 'partial'] } }, orderBy: [{ status: 'asc' }, { sourceKey: 'asc' }] });
        for (const item of failed) say(`${item.status}\t${item.sourceKey}\t${item.kind}\t${item.reason}`);
        say(`${failed.filter((i) => i.status === 'failed').length} failed, ${failed.filter((i) => i.status === 'partial').length} partly loaded`);
      }),
  },
  session: {
    usage: 'session --email <email> --org <id> [--remember-me]',
    help: 'Mint a dashboard session token from the local identity provider (the secret in the state folder, or IDS_SESSION_SECRET). The person becomes a member of the organization. Valid 30 days, 90 with --remember-me.',
    options: { email: { type: 'string' }, org: { type: 'string' }, 'remember-me': { type: 'boolean' } },
    run: (values) =>
      withDatabase(async ({ prisma }) => {
        if (config.identityProvider) throw new Error('an external identity provider is configured (IDS_AUTH_ISSUER); sessions come from it, not from this command');
        if (!values.email || !values.org) throw new Error('--email and --org are required');
        const org = await prisma.organization.findUnique({ where: { id: values.org as string } });
        if (!org) throw new Error(`no organization ${values.org}`);
        const user = await addMember(prisma, org.id, values.email as string);
        const { token, expiresAt } = mintLocalSession(await localSessionSecret(config.stateDir), {
          userId: user.id,
          email: user.email,
          orgId: org.id,
          rememberMe: values['remember-me'] === true,
        });
        process.stderr.write(`session for ${user.email} in ${org.id}, expires ${expiresAt.toISOString()}\n`);
        say(token);
      }),
  },
};

function usage(): string {
  return ['Usage: npm run ids -- <command> [options]   (each command answers --help)', '', ...Object.values(commands).map((c) => `  ${c.usage.padEnd(52)} ${c.help.split('. ')[0].replace(/\.$/, '')}.`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    say(usage());
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command ${name}\n\n${usage()}\n`);
    return 1;
  }
  const { values, positionals } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (values.help) {
    say(`Usage: npm run ids -- ${command.usage}\n\n${command.help}`);
    return 0;
  }
  if (positionals.length !== (command.positionals ?? 0)) {
    process.stderr.write(`Usage: npm run ids -- ${command.usage}\n`);
    return 1;
  }
  await command.run(values, positionals);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  },
);
