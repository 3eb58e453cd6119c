import type { SuborgType } from '@vpp/shared/constants';
import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';

const orgUserColumns = ['id', 'given_name', 'surname', 'email'] as const;

/** One page of an organisation's users, by surname then given name, with the total. */
export async function listOrgUsers(db: Database, organisationId: number, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .select(orgUserColumns)
      .where('organisation_id', '=', organisationId)
      .orderBy(sql`lower(surname)`)
      .orderBy(sql`lower(given_name)`)
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', organisationId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findOrgUser(db: Database, organisationId: number, id: number) {
  return db.selectFrom('users').select(orgUserColumns).where('id', '=', id).where('organisation_id', '=', organisationId).executeTakeFirst();
}

/** Permissions of several users at once. */
export async function permissionsOf(db: Database, userIds: number[]): Promise<Map<number, string[]>> {
  const map = new Map<number, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return map;
  const rows = await db.selectFrom('user_permissions').select(['user_id', 'permission']).where('user_id', 'in', userIds).orderBy('permission').execute();
  for (const r of rows) map.get(r.user_id)?.push(r.permission);
  return map;
}

/** The organisation of another user (any organisation) who already has this e-mail address or username. */
export async function emailOwner(db: Database, email: string, exceptId?: number): Promise<{ organisation_id: number } | undefined> {
  return db
    .selectFrom('users')
    .select('organisation_id')
    .where((eb) => eb.or([eb('email', '=', email), eb('username', '=', email)]))
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst();
}

export async function setPermissions(db: Database, userId: number, permissions: string[]): Promise<void> {
  await db.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
  if (permissions.length) {
    await db
      .insertInto('user_permissions')
      .values(permissions.map((permission) => ({ user_id: userId, permission })))
      .execute();
  }
}

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

/** Whether the database has any organisation (the demo is created on a database that has none). */
export async function anyOrganisation(db: Database): Promise<boolean> {
  return (await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst()) !== undefined;
}
