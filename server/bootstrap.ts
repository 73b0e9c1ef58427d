// First start on an empty database: a demo organization with one API key, whose secret is
// printed once and written to <state dir>/demo-api-key (mode 0600).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { issueApiKey } from '../resolvers/apiKeys.ts';
import type { Services } from '../resolvers/context.ts';
import { createOrganization } from '../resolvers/orgs.ts';

export const demoKeyFile = (stateDir: string) => path.join(stateDir, 'demo-api-key');

/** lock id for "creating the demo organization", so two instances starting together make one */
const demoLock = 4_242_001;

export async function ensureDemoOrg(services: Pick<Services, 'prisma' | 'bus'>, stateDir: string) {
  const { prisma } = services;
  const org = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${demoLock})`;
    const existing = await tx.organization.findFirst({ where: { isDemo: true } });
    return existing ? { existing } : { created: await createOrganization(tx, 'Demo organization', { isDemo: true }) };
  });
  if (org.existing) return { created: false as const, org: org.existing };
  const { secret } = await issueApiKey(services, org.created.id, 'demo key');
  await mkdir(stateDir, { recursive: true });
  await writeFile(demoKeyFile(stateDir), `${secret}\n`, { mode: 0o600 });
  return { created: true as const, org: org.created, secret };
}
