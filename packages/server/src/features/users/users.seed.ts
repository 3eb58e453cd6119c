import { DEMO_MFA_SECRET, DEMO_ORGANISATIONS, DEMO_PASSWORD, DEMO_USERS, demoEmail } from '@vpp/shared/demo';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import type { AppContext } from '../../platform/context.ts';
import type { DemoSeed } from '../../platform/module.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { createOrganisation, createUser } from './users.repo.ts';

/** The demo organisations and their logins (README); the areas after this one seed into them. */
export async function seedDemoAccounts(ctx: AppContext, demo: DemoSeed): Promise<void> {
  for (const org of DEMO_ORGANISATIONS) demo.orgs[org.key] = await createOrganisation(ctx.db, org.name, org.suborg_type);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const u of DEMO_USERS) {
    await createUser(ctx.db, {
      organisationId: demo.orgs[u.organisation] as number,
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
}
