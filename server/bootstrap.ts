// First start on an empty database: a demo organization with one API key, whose secret is
// printed once and written to <state dir>/demo-api-key (mode 0600).
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { insertApiKey } from '../resolvers/apiKeys.ts';
import type { Services } from '../resolvers/context.ts';
import { createOrganization } from '../resolvers/orgs.ts';
import { publishAll } from '../subscriptions/events.ts';

export const demoKeyFile = (stateDir: string) => path.join(stateDir, 'demo-api-key');

/** lock id for "creating the demo organization", so two instances starting together make one */
const demoLock = 4_242_001;

/**
 * The organization and its key are one transaction, so a crash cannot leave a demo organization
 * without a key. The key file is written after the commit; if that write fails, the start fails
 * and says so, and `ids keys:create` makes another key.
 */
export async function ensureDemoOrg(services: Pick<Services, 'prisma' | 'bus'>, stateDir: string) {
  const outcome = await services.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${demoLock})`;
    const existing = await tx.organization.findFirst({ where: { isDemo: true } });
    if (existing) return { existing };
    const org = await createOrganization(tx, 'Demo organization', { isDemo: true });
    return { org, ...(await insertApiKey(tx, org.id, 'demo key')) };
  });
  if (outcome.existing) return { created: false as const, org: outcome.existing, keyFileExists: await exists(demoKeyFile(stateDir)) };
  await publishAll(services.bus, [outcome.event]);
  await mkdir(stateDir, { recursive: true });
  await writeFile(demoKeyFile(stateDir), `${outcome.secret}\n`, { mode: 0o600 });
  return { created: true as const, org: outcome.org, secret: outcome.secret };
}

const exists = (file: string) => access(file).then(() => true, () => false);
