import type { SuborgType } from '@vpp/shared';
import { type Database, nowS } from '../db/database.ts';

export async function createOrganisation(db: Database, name: string, suborgType: SuborgType): Promise<number> {
  const row = await db.insertInto('organisations').values({ name, suborg_type: suborgType, created_at: nowS() }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Creates a user with their permissions; `mfa` turns two-factor on, confirmed when a secret is given. */
export async function createUser(
  db: Database,
  u: {
    organisationId: number;
    username: string;
    email: string;
    givenName: string;
    surname: string;
    passwordHash: string | null;
    permissions: string[];
    mfa?: { secret: string | null } | null;
    timezone?: string | null;
  },
): Promise<number> {
  const now = nowS();
  const row = await db
    .insertInto('users')
    .values({
      organisation_id: u.organisationId,
      username: u.username.toLowerCase(),
      email: u.email.toLowerCase(),
      given_name: u.givenName,
      surname: u.surname,
      password_hash: u.passwordHash,
      timezone: u.timezone ?? null,
      alert_email_frequency: 'DAILY',
      mfa_enabled: u.mfa ? 1 : 0,
      totp_secret: u.mfa?.secret ?? null,
      totp_confirmed: u.mfa?.secret ? 1 : 0,
      totp_last_step: null,
      code_preference: 'APP',
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (u.permissions.length) {
    await db
      .insertInto('user_permissions')
      .values(u.permissions.map((permission) => ({ user_id: row.id, permission })))
      .execute();
  }
  return row.id;
}
