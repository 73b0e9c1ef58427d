// `npm start`: one service instance on PORT, embedded database unless DATABASE_URL is set.
import { describeTarget } from '../prisma/adapter.ts';
import { createService } from './app.ts';
import { autoIngest } from './autoIngest.ts';
import { demoKeyFile, demoOwnerEmail, ensureDemoOrg } from './bootstrap.ts';
import { createSignInLink } from '../resolvers/accounts/links.ts';
import { loadConfig, localAddress } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { claimStateFolder, describeOwner } from './owner.ts';
import { serveOwnerChannel } from './ownerChannel.ts';

const config = loadConfig();
const logger = createLogger(config.logLevel);

// The embedded database has one owner (server/owner.ts): refuse at once if another process has it.
const claim = config.database.kind === 'pglite' ? await claimStateFolder(config.stateDir, 'server') : null;
if (claim && !claim.owned) {
  process.stderr.write(`The state folder ${config.stateDir} is in use by ${describeOwner(claim.owner)}. Stop it first, or start with another IDS_STATE_DIR.\n`);
  process.exit(1);
}
const ownership = claim?.owned ? claim.ownership : null;

try {
  const service = await createService(config, { logger });
  let channel: Awaited<ReturnType<typeof serveOwnerChannel>> | null = null;
  let ingesting: Promise<void> = Promise.resolve();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    // close() gives requests and webhook attempts the grace period; should anything else hang, exit anyway
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 5000).unref();
    await Promise.race([ingesting, new Promise((resolve) => setTimeout(resolve, 100))]);
    await channel?.close();
    await service.close();
    await ownership?.release();
    process.exit(0);
  };
  // Before anything answers: a signal that arrives while the service is still starting (it answers
  // requests before the owner channel is up) stops it as cleanly as a later one.
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (service.database.appliedMigrations.length) logger.info({ migrations: service.database.appliedMigrations }, 'applied migrations');
  if (config.createDemoOrg) {
    const demo = await ensureDemoOrg(service.services, config.stateDir);
    if (demo.created) {
      const link = await createSignInLink(service.services.prisma, config.publicUrl, demoOwnerEmail);
      // Printed once, for the person at the terminal; the logger never sees them.
      process.stdout.write(
        `\nDemo organization ${demo.org.id} created. Its API key (shown once, also saved to ${demoKeyFile(config.stateDir)}):\n\n  ${demo.secret}\n\n` +
          `Try: curl -H "x-api-key: $(cat ${demoKeyFile(config.stateDir)})" ${localAddress(config.host, config.port)}/v1/me\n\n` +
          `Sign in to the dashboard as its owner (${demoOwnerEmail}) with this one-time link (15 minutes):\n\n  ${link.url}\n\n` +
          `A fresh one: npm run ids -- sign-in-link --email ${demoOwnerEmail}\n\n`,
      );
    } else if (demo.keyFileExists) {
      logger.info({ orgId: demo.org.id, keyFile: demoKeyFile(config.stateDir) }, 'demo organization exists; its key is in the key file');
    } else {
      logger.info({ orgId: demo.org.id }, `demo organization exists, but this state folder has no key for it; make one with: npm run ids -- keys:create --org ${demo.org.id}`);
    }
  }
  const url = await service.listen(config.port, config.host);
  channel = ownership ? await serveOwnerChannel(service.services) : null;
  await ownership?.publish({ port: Number(new URL(url).port) });
  logger.info({ url, graphiql: `${url}/graphql`, database: describeTarget(config.database), redis: config.redisUrl ? 'shared' : 'in-process' }, 'listening');
  if (!stopping) ingesting = autoIngest(service.services);
} catch (error) {
  logger.fatal({ err: error }, 'could not start');
  await ownership?.release();
  process.exit(1);
}
