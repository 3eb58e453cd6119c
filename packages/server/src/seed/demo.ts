import { DEMO_MFA_SECRET, DEMO_ORGANISATIONS, DEMO_PASSWORD, DEMO_USERS, demoEmail, PERMISSIONS } from '@vpp/shared';
import type { Database } from '../db/database.ts';
import { seedDemoVpps } from '../features/vpps/vpps.seed.ts';
import { hashPassword } from '../platform/passwords.ts';
import { createOrganisation, createUser } from './accounts.ts';

/** Creates the demo organisations and logins once; later starts find them and change nothing. */
export async function seedDemo(db: Database): Promise<void> {
  const existing = await db.selectFrom('organisations').select('id').executeTakeFirst();
  if (existing) return;
  const orgIds = new Map<string, number>();
  for (const org of DEMO_ORGANISATIONS) orgIds.set(org.key, await createOrganisation(db, org.name, org.suborg_type));
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const u of DEMO_USERS) {
    await createUser(db, {
      organisationId: orgIds.get(u.organisation) as number,
      username: u.username,
      email: demoEmail(u.username),
      givenName: u.givenName,
      surname: u.surname,
      passwordHash,
      permissions: u.permissions === 'all' ? PERMISSIONS.map((p) => p.name) : [...u.permissions],
      mfa: u.mfa === 'confirmed' ? { secret: DEMO_MFA_SECRET } : u.mfa === 'unconfigured' ? { secret: null } : null,
      timezone: 'Australia/Sydney',
    });
  }
  await seedDemoVpps(db, { retailer: orgIds.get('retailer'), network: orgIds.get('network') });
}
