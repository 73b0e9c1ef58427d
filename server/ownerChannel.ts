// Operator commands, run by the server that owns the embedded database for a CLI in another
// process: HTTP over a Unix socket in the state folder (mode 0600: only the folder's user may
// use it). The CLI sends its command line; the answer streams its output as NDJSON lines
// ({"out": …}, {"err": …}) and ends with {"exit": code}.
import { chmod, unlink } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { Services } from '../resolvers/context.ts';
import { runCommand } from './commands.ts';
import { channelSocket } from './owner.ts';

/** What the CLI's own environment says about the SEC (IDS_SEC_USER_AGENT, IDS_SEC_BASE_URL); the owner runs its command with them. */
export type CliSecSettings = Partial<Pick<Services['config']['sec'], 'userAgent' | 'baseUrl'>>;

const definedOnly = (settings: CliSecSettings): CliSecSettings => Object.fromEntries(Object.entries(settings).filter(([, value]) => typeof value === 'string' && value !== ''));

export async function serveOwnerChannel(services: Services): Promise<{ close(): Promise<void> }> {
  const socketPath = channelSocket(services.config.stateDir);
  await unlink(socketPath).catch(() => {}); // a previous owner's, left by a crash
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = (message: object) => res.write(`${JSON.stringify(message)}\n`);
      let exit = 1;
      try {
        const { argv, sec } = JSON.parse(body) as { argv: string[]; sec?: CliSecSettings };
        services.logger.info({ command: argv[0] }, 'operator command from the CLI');
        exit = await runCommand(argv, {
          // the SEC settings the operator ran the CLI with, where set, over the server's own
          config: { ...services.config, sec: { ...services.config.sec, ...definedOnly(sec ?? {}) } },
          say: (text) => line({ out: text }),
          note: (text) => line({ err: text }),
          progress: false,
          database: async () => ({ prisma: services.prisma, bus: services.bus, logger: services.logger, appliedMigrations: [], activity: services.activity }),
        });
      } catch (error) {
        line({ err: `error: ${(error as Error).message}` });
      }
      line({ exit });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, () => resolve()));
  await chmod(socketPath, 0o600);
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => unlink(socketPath).catch(() => {})),
  };
}

/** Runs a command line in the owner; resolves to its exit code. */
export function runInOwner(stateDir: string, argv: string[], sec: CliSecSettings, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: channelSocket(stateDir), method: 'POST', path: '/commands', headers: { 'content-type': 'application/json' } }, (res) => {
      let buffered = '';
      let exit = 1;
      res.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines.filter(Boolean)) {
          const message = JSON.parse(line) as { out?: string; err?: string; exit?: number };
          if (message.out !== undefined) out(message.out);
          if (message.err !== undefined) err(message.err);
          if (message.exit !== undefined) exit = message.exit;
        }
      });
      res.on('end', () => resolve(exit));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ argv, sec }));
  });
}
