// First start on an empty database: a demo organization with one API key, whose secret is
// printed once and written to <state dir>/demo-api-key (mode 0600).
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { insertApiKey } from '../resolvers/apiKeys.ts';
import type { Services } from '../resolvers/context.ts';
import { addMember, createOrganization, starterPlanKey } from '../resolvers/orgs.ts';
import { publishAll } from '../subscriptions/events.ts';

export const demoKeyFile = (stateDir: string) => path.join(stateDir, 'demo-api-key');

/** lock id for "creating the demo organization", so two instances starting together make one */
const demoLock = 4_242_001;

/**
 * The demo organization's plan: the starter grant allows 30 data reads a minute and no analytics,
 * too little to try every README example, so the demo has the Personal plan's quotas (120 data
 * reads a minute, 20,000 a day; 10 analytics calls a minute, 500 a day), with nothing to pay on
 * this machine's own database.
 */
export const demoPlanKey = 'personal';

/** The demo organization's owner, who signs in to the dashboard with the link the first start prints (a reserved domain: no mail goes anywhere). */
export const demoOwnerEmail = 'owner@demo.example';

/**
 * The organization and its key are one transaction, so a crash cannot leave a demo organization
 * without a key. The key file is written after the commit; if that write fails, the start fails
 * and says so, and `ids keys:create` makes another key.
 */
export async function ensureDemoOrg(services: Pick<Services, 'prisma' | 'bus'>, stateDir: string) {
  const outcome = await services.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${demoLock})`;
    const existing = await tx.organization.findFirst({ where: { isDemo: true } });
    // A demo organization made by an earlier version is still on the starter grant: move it up.
    if (existing?.planKey === starterPlanKey) {
      return { existing: await tx.organization.update({ where: { id: existing.id }, data: { planKey: demoPlanKey, billingState: 'active' } }) };
    }
    if (existing) return { existing };
    const org = await createOrganization(tx, 'Demo organization', { isDemo: true, planKey: demoPlanKey });
    await addMember(tx, org.id, demoOwnerEmail, 'owner');
    return { org, ...(await insertApiKey(tx, org.id, 'demo key')) };
  });
  if (outcome.existing) return { created: false as const, org: outcome.existing, keyFileExists: await exists(demoKeyFile(stateDir)) };
  await publishAll(services.bus, [outcome.event]);
  await mkdir(stateDir, { recursive: true });
  await writeFile(demoKeyFile(stateDir), `${outcome.secret}\n`, { mode: 0o600 });
  return { created: true as const, org: outcome.org, secret: outcome.secret };
}

const exists = (file: string) => access(file).then(() => true, () => false);
