// The operator commands of `npm run ids`, as a table: the CLI runs them in its own process when
// it owns the state folder, and the server that owns it runs them for the CLI otherwise
// (server/ownerChannel.ts), so that every command works the same whether or not a server runs.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openAdapter, describeTarget } from '../prisma/adapter.ts';
import type { PrismaClient } from '../prisma/db.ts';
import { createMigration } from '../prisma/migrate.ts';
import { issueApiKey, parseScopes } from '../resolvers/apiKeys.ts';
import { adjustCredits, planStates, setPlan } from '../resolvers/billing/account.ts';
import { addMember, createOrganization } from '../resolvers/orgs.ts';
import { localSessionSecret } from '../resolvers/sessions.ts';
import { startSession } from '../resolvers/accounts/sessions.ts';
import { createSignInLink } from '../resolvers/accounts/links.ts';
import { assertEmail } from '../resolvers/accounts/emailCodes.ts';
import { isRole, roles } from '../resolvers/roles.ts';
import { createOperator, ingestFailureOrder, ingestFailureWhere } from '../resolvers/operators.ts';
import { runIngest, summaryLine } from '../ingest/run.ts';
import { ingestProgress } from '../ingest/progress.ts';
import { sourceFor } from '../ingest/sources/index.ts';
import { bulkSummaryLine, runBulkIngest } from '../ingest/bulk/run.ts';
import { bulkProgress } from '../ingest/bulk/progress.ts';
import { bulkIngestInThread } from './ingestThread.ts';
import { runSync, syncSummaryLine } from '../ingest/sync.ts';
import { fetchFundLetters, fundLetterFetchLine } from '../ingest/fundLetters.ts';
import type { EventBus } from '../subscriptions/bus.ts';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import type { RequestActivity } from '../core/requestActivity.ts';

export interface CommandDatabase {
  prisma: PrismaClient;
  bus: EventBus;
  logger: Logger;
  /** migrations this opening applied (none when the owner had already applied them) */
  appliedMigrations: string[];
  /** the requests of the server running this command for the CLI (an ingest lets them go first) */
  activity?: RequestActivity;
}

export interface CommandContext {
  config: Config;
  /** a line of the command's output (stdout) */
  say(line: string): void;
  /** a line for the person, not the output (stderr) */
  note(line: string): void;
  /** whether to draw ingest progress on the terminal */
  progress: boolean;
  /** the database, opened on first use */
  database(): Promise<CommandDatabase>;
}

export interface Command {
  usage: string;
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  positionals?: number;
  /** false for the commands that need no database (and so no owner) */
  database?: false;
  run(values: Record<string, string | boolean | undefined>, positionals: string[], ctx: CommandContext): Promise<void>;
}

function withDatabase<T>(ctx: CommandContext, work: (db: CommandDatabase) => Promise<T>): Promise<T> {
  return ctx.database().then(work);
}

export const commands: Record<string, Command> = {
  migrate: {
    usage: 'migrate',
    help: 'Apply pending migrations from prisma/migrations and seed the reference data (plans, meter classes).',
    options: {},
    run: (_values, _positionals, ctx) =>
      withDatabase(ctx, async (db) => {
        ctx.say(db.appliedMigrations.length ? `applied: ${db.appliedMigrations.join(', ')}` : 'database is up to date');
        ctx.say(`database: ${describeTarget(ctx.config.database)}`);
      }),
  },
  'migration:create': {
    usage: 'migration:create <name>',
    help: 'Diff prisma/schema.prisma against prisma/migrations and write the difference as prisma/migrations/<timestamp>_<name>/migration.sql. Needs no database: the migrations are replayed on a throwaway embedded one.',
    options: {},
    positionals: 1,
    database: false,
    async run(_values, [name], ctx) {
      const shadow = await openAdapter({ kind: 'pglite', dataDir: 'memory://' });
      try {
        const created = await createMigration(shadow.factory, name!);
        ctx.say(created ? `created prisma/migrations/${created}/migration.sql` : 'no changes: the schema and the migrations agree');
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
    run: (values, [name], ctx) =>
      withDatabase(ctx, async ({ prisma }) => {
        const org = await createOrganization(prisma, name!, { planKey: values.plan as string | undefined });
        ctx.say(org.id);
      }),
  },
  'keys:create': {
    usage: 'keys:create --org <id> [--name <label>] [--scopes organization|read]',
    help: 'Create an API key in the organization and print its secret. The secret is shown only this once. --scopes read makes a key that cannot change anything (default: organization).',
    options: { org: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus }) => {
        if (!values.org) throw new Error('--org is required');
        const org = await prisma.organization.findUnique({ where: { id: values.org as string } });
        if (!org) throw new Error(`no organization ${values.org}`);
        const scopes = parseScopes(values.scopes === undefined ? undefined : String(values.scopes).split(','), '--scopes');
        const { apiKey, secret } = await issueApiKey({ prisma, bus }, org.id, (values.name as string | undefined) ?? 'cli key', null, undefined, scopes);
        ctx.say(`${apiKey.id} ${apiKey.hint}`);
        ctx.say(secret);
      }),
  },
  ingest: {
    usage: 'ingest --source <folder|URL> [--tickers AAPL,NVDA] [--ciks 320193] [--index-dates 2024-01-02] [--index-quarters 2024Q1] [--user-agent "Name email"] | ingest --bulk <folder>',
    help: 'Load SEC data: a folder laid out like ../shared/data, or the SEC over HTTP (https://www.sec.gov) for the named tickers or CIKs and daily/quarterly form indexes, at most 10 requests a second with the User-Agent from --user-agent or IDS_SEC_USER_AGENT. Running it again changes only what changed. Prints one summary line; failed items are listed by ingest:failures. --bulk loads the SEC\'s nightly archives instead (companyfacts.zip and/or submissions.zip in the folder) with COPY, member by member, and builds the derived data after; it announces only the filings and signals of the last 31 days (older ones are history, written without an event).',
    options: { bulk: { type: 'string' }, source: { type: 'string' }, tickers: { type: 'string' }, ciks: { type: 'string' }, 'index-dates': { type: 'string' }, 'index-quarters': { type: 'string' }, 'user-agent': { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus, logger, activity }) => {
        if (typeof values.bulk === 'string') {
          const progress = ctx.progress ? bulkProgress((text) => process.stderr.write(text), process.stderr.isTTY === true) : undefined;
          const { database } = ctx.config;
          const summary = database.kind === 'postgres' ? await bulkIngestInThread({ bus, logger }, { databaseUrl: database.url, logLevel: ctx.config.logLevel }, values.bulk, progress) : await runBulkIngest({ prisma, bus, logger }, values.bulk, progress);
          ctx.say(bulkSummaryLine(summary));
          return;
        }
        if (!values.source) throw new Error('--source or --bulk is required');
        const list = (v: unknown) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
        const source = sourceFor(
          {
            source: values.source as string,
            tickers: list(values.tickers),
            ciks: list(values.ciks),
            indexDates: list(values['index-dates']),
            indexQuarters: list(values['index-quarters']),
            userAgent: (values['user-agent'] as string | undefined) ?? ctx.config.sec.userAgent,
          },
          { prisma, logger },
        );
        const progress = ingestProgress({ logger, terminal: ctx.progress && process.stderr.isTTY ? process.stderr : undefined });
        const summary = await runIngest({ prisma, bus, logger, activity }, source, progress);
        ctx.say(summaryLine(summary));
      }),
  },
  sync: {
    usage: 'sync [--since YYYY-MM-DD] [--today YYYY-MM-DD] [--all] [--user-agent "Name email"]',
    help: 'Bring the database up to date with EDGAR: for each business day since the last one synced (else since the newest filing held; at most 31 days back), the SEC\'s daily form index, and for each company in it that the database holds, its submissions, companyfacts and the primary documents of that day\'s filings; then the index\'s filings of every other company. --all refreshes every company in the index. New filings announce their events as an ingest does, so monitors, webhooks and streams fire for them. Needs IDS_SEC_USER_AGENT (or --user-agent); IDS_SEC_BASE_URL points it at a mirror. One sync at a time per database. Prints one line per day.',
    options: { since: { type: 'string' }, today: { type: 'string' }, all: { type: 'boolean' }, 'user-agent': { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus, logger }) => {
        const userAgent = (values['user-agent'] as string | undefined) ?? ctx.config.sec.userAgent;
        if (!userAgent) throw new Error('the SEC requires a declared User-Agent with a contact email: set IDS_SEC_USER_AGENT or pass --user-agent "Company admin@example.com"');
        const base = ctx.config.sec.baseUrl;
        const summary = await runSync(
          { prisma, bus, logger },
          { userAgent, baseUrls: base ? { data: base, www: base } : undefined, since: values.since as string | undefined, today: values.today as string | undefined, scope: values.all ? 'all' : 'held', logger },
          () => ingestProgress({ logger, terminal: ctx.progress && process.stderr.isTTY ? process.stderr : undefined }),
        );
        ctx.say(syncSummaryLine(summary));
      }),
  },
  'fund-letters:fetch': {
    usage: 'fund-letters:fetch [--ciks 1234567,7654321] [--latest 2] [--user-agent "Name email"]',
    help: 'Fetch the shareholder reports (N-CSR, N-CSRS) of fund registrants from the SEC and read their letters into sections (GET /v1/funds/letters): the registrants named, else those of the N-CEN and N-PORT reports held; the latest --latest reports of each form (default 2). A report already read is not fetched again. Needs IDS_SEC_USER_AGENT (or --user-agent); IDS_SEC_BASE_URL points it at a mirror. `sync` then brings each followed registrant\'s new reports. Prints one line.',
    options: { ciks: { type: 'string' }, latest: { type: 'string' }, 'user-agent': { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus, logger }) => {
        const userAgent = (values['user-agent'] as string | undefined) ?? ctx.config.sec.userAgent;
        if (!userAgent) throw new Error('the SEC requires a declared User-Agent with a contact email: set IDS_SEC_USER_AGENT or pass --user-agent "Company admin@example.com"');
        const latest = values.latest === undefined ? undefined : Number(values.latest);
        if (latest !== undefined && !(Number.isInteger(latest) && latest >= 1 && latest <= 20)) throw new Error('--latest is a whole number from 1 to 20');
        const base = ctx.config.sec.baseUrl;
        const ciks = typeof values.ciks === 'string' ? values.ciks.split(',').map((c) => c.trim()).filter(Boolean) : undefined;
        const summary = await fetchFundLetters({ prisma, bus, logger }, { userAgent, baseUrls: base ? { data: base, www: base } : undefined, ciks, latest, logger }, ingestProgress({ logger, terminal: ctx.progress && process.stderr.isTTY ? process.stderr : undefined }));
        ctx.say(fundLetterFetchLine(summary));
      }),
  },
  'ingest:failures': {
    usage: 'ingest:failures [--limit <n>]',
    help: 'List the items the last ingests could not load (failed), or loaded with parts left out (partial), with the reason.',
    options: { limit: { type: 'string' } },
    run: (_values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma }) => {
        const failed = await prisma.ingestItem.findMany({ where: ingestFailureWhere, orderBy: ingestFailureOrder });
        for (const item of failed) ctx.say(`${item.status}\t${item.sourceKey}\t${item.kind}\t${item.reason}`);
        ctx.say(`${failed.filter((i) => i.status === 'failed').length} failed, ${failed.filter((i) => i.status === 'partial').length} partly loaded`);
      }),
  },
  'billing:set-plan': {
    usage: 'billing:set-plan --org <id> --plan <key> [--state <state>]',
    help: `Move an organization to a plan (sandbox_grant, payg, personal, team, enterprise) and billing state (${planStates.join(', ')}; default: sandbox_grant for the starter plan, else active). Every instance applies it at once.`,
    options: { org: { type: 'string' }, plan: { type: 'string' }, state: { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus }) => {
        if (!values.org || !values.plan) throw new Error('--org and --plan are required');
        const state = values.state as string | undefined;
        if (state && !(planStates as readonly string[]).includes(state)) throw new Error(`--state must be one of ${planStates.join(', ')}`);
        if (!(await prisma.organization.findUnique({ where: { id: values.org as string } }))) throw new Error(`no organization ${values.org}`);
        const org = await setPlan({ prisma, bus }, values.org as string, values.plan as string, state).catch((error) => {
          throw new Error(error.message);
        });
        ctx.say(`${org.id} ${org.planKey} ${org.billingState}`);
      }),
  },
  'credits:adjust': {
    usage: 'credits:adjust --org <id> --amount-cents <n> --reason <text>',
    help: 'Add (or with a negative amount, remove) prepaid credit as an `adjustment` entry of the ledger, with the reason as its description. Never takes the balance below zero.',
    options: { org: { type: 'string' }, 'amount-cents': { type: 'string' }, reason: { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma, bus }) => {
        const amount = Number(values['amount-cents']);
        if (!values.org || !Number.isSafeInteger(amount) || amount === 0 || !values.reason) throw new Error('--org, a whole non-zero --amount-cents and --reason are required');
        if (!(await prisma.organization.findUnique({ where: { id: values.org as string } }))) throw new Error(`no organization ${values.org}`);
        const entry = await adjustCredits({ prisma, bus }, values.org as string, amount, values.reason as string).catch((error) => {
          throw new Error(error.message);
        });
        ctx.say(`${entry.id} ${entry.amountMillicents} millicents, balance ${entry.balanceAfterMillicents} millicents`);
      }),
  },
  'sign-in-link': {
    usage: 'sign-in-link --email <email>',
    help: 'Print a one-time link that signs the person in to the dashboard (single use, 15 minutes). A first sign-in creates the person, and a personal organization unless they were invited.',
    options: { email: { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma }) => {
        if (!values.email) throw new Error('--email <address> is required');
        const link = await createSignInLink(prisma, ctx.config.publicUrl, assertEmail(values.email as string));
        ctx.note(`valid until ${link.expiresAt.toISOString()}, once`);
        ctx.say(link.url);
      }),
  },
  'operators:create': {
    usage: 'operators:create --email <email>',
    help: 'Make the person with this address (created if new) an operator of the service: signed in, they may use /v1/operator/* on every organization. Prints their user id.',
    options: { email: { type: 'string' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma }) => {
        if (typeof values.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(values.email)) throw new Error('--email <address> is required');
        const user = await createOperator(prisma, values.email);
        ctx.note(`${user.email} is an operator; they sign in like anyone, and their sessions may use /v1/operator/*`);
        ctx.say(user.id);
      }),
  },
  session: {
    usage: 'session --email <email> --org <id> [--role <role>] [--remember-me]',
    help: 'Start a dashboard session for scripts and print its bearer token. The person becomes a member of the organization (with --role, owner unless told; an existing member keeps theirs). Valid 30 days, 90 with --remember-me; it is listed and can be ended like any signed-in device.',
    options: { email: { type: 'string' }, org: { type: 'string' }, role: { type: 'string' }, 'remember-me': { type: 'boolean' } },
    run: (values, _positionals, ctx) =>
      withDatabase(ctx, async ({ prisma }) => {
        if (!values.email || !values.org) throw new Error('--email and --org are required');
        const role = (values.role as string | undefined) ?? 'owner';
        if (!isRole(role)) throw new Error(`--role is one of ${roles.join(', ')}`);
        const org = await prisma.organization.findUnique({ where: { id: values.org as string } });
        if (!org) throw new Error(`no organization ${values.org}`);
        const user = await addMember(prisma, org.id, values.email as string, role);
        const { token, session } = await startSession({ prisma, sessionSecret: await localSessionSecret(ctx.config.stateDir, ctx.config.sessionSecret) }, {
          userId: user.id,
          email: user.email,
          orgId: org.id,
          rememberMe: values['remember-me'] === true,
          method: 'cli',
        });
        ctx.note(`session ${session.id} for ${user.email} in ${org.id}, expires ${session.expiresAt.toISOString()}`);
        ctx.say(token);
      }),
  },
};

export function usage(): string {
  return ['Usage: npm run ids -- <command> [options]   (each command answers --help)', '', ...Object.values(commands).map((c) => `  ${c.usage.padEnd(52)} ${c.help.split('. ')[0].replace(/\.$/, '')}.`)].join('\n');
}

/** Runs one command line; resolves to the exit code. */
export async function runCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    ctx.say(usage());
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    ctx.note(`unknown command ${name}\n\n${usage()}`);
    return 1;
  }
  const { values, positionals } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (values.help) {
    ctx.say(`Usage: npm run ids -- ${command.usage}\n\n${command.help}`);
    return 0;
  }
  if (positionals.length !== (command.positionals ?? 0)) {
    ctx.note(`Usage: npm run ids -- ${command.usage}`);
    return 1;
  }
  await command.run(values, positionals, ctx);
  return 0;
}


/** Whether running this command line opens the database (and so needs the state folder's owner). */
export function needsDatabase(argv: string[]): boolean {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  return !!command && command.database !== false && !rest.includes('--help');
}
