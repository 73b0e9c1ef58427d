// `npm run ids -- <command>`: operator tasks against the configured database (the same
// environment as `npm start`: IDS_STATE_DIR, DATABASE_URL). On the embedded database a command
// runs where the database's owner is: in the server that owns the state folder, through its
// channel, or here, holding the folder for as long as it works (server/owner.ts).
import path from 'node:path';
import { openDatabase } from '../prisma/db.ts';
import { createEventBus } from '../subscriptions/bus.ts';
import { needsDatabase, runCommand, type CommandDatabase } from './commands.ts';
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { claimStateFolder, describeOwner, type Ownership } from './owner.ts';
import { runInOwner } from './ownerChannel.ts';

const config = loadConfig();
const say = (line: string) => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);
/** how long to wait for another command that holds the folder */
const waitForCommandMs = 30_000;

async function runHere(argv: string[]): Promise<number> {
  let opened: (CommandDatabase & { close(): Promise<void> }) | undefined;
  try {
    return await runCommand(argv, {
      config,
      say,
      note,
      progress: true,
      async database() {
        if (!opened) {
          const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
          const db = await openDatabase(config.database);
          opened = { prisma: db.prisma, bus: createEventBus(undefined, logger), logger, appliedMigrations: db.appliedMigrations, close: () => db.close() };
        }
        return opened;
      },
    });
  } finally {
    await opened?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  if (config.database.kind !== 'pglite' || !needsDatabase(argv)) return runHere(argv);
  const deadline = Date.now() + waitForCommandMs;
  for (;;) {
    const claim = await claimStateFolder(config.stateDir, 'cli');
    if (claim.owned) return withOwnership(claim.ownership, () => runHere(argv));
    if (claim.owner.role === 'server' && claim.owner.port !== null) {
      return runInOwner(config.stateDir, withAbsoluteFolders(argv), { userAgent: config.sec.userAgent, baseUrl: config.sec.baseUrl }, say, note);
    }
    if (Date.now() > deadline) throw new Error(`the state folder ${config.stateDir} is held by ${describeOwner(claim.owner)}; try again when it has finished`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The owner runs in its own working directory: a folder named relative to ours is passed as an absolute path. */
function withAbsoluteFolders(argv: string[]): string[] {
  const absolute = (folder: string) => (/^https?:\/\//.test(folder) ? folder : path.resolve(folder));
  return argv.map((arg, i) => {
    const joined = arg.match(/^(--(?:source|bulk)=)(.+)$/);
    if (joined) return joined[1] + absolute(joined[2]!);
    return argv[i - 1] === '--source' || argv[i - 1] === '--bulk' ? absolute(arg) : arg;
  });
}

async function withOwnership<T>(ownership: Ownership, work: () => Promise<T>): Promise<T> {
  const interrupted = () => void ownership.release().then(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    return await work();
  } finally {
    await ownership.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  },
);
