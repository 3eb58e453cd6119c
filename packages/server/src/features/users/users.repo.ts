import type { SuborgType } from '@vpp/shared';
import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import type { UserRow } from '../../db/schema.ts';

export interface UserWithOrg extends UserRow {
  organisation_name: string;
  suborg_type: SuborgType;
}

const withOrg = (db: Database) =>
  db
    .selectFrom('users')
    .innerJoin('organisations', 'organisations.id', 'users.organisation_id')
    .selectAll('users')
    .select(['organisations.name as organisation_name', 'organisations.suborg_type']);

/** The user whose username or e-mail (either, case-insensitive) is given. */
export async function findUserByLogin(db: Database, login: string): Promise<UserWithOrg | undefined> {
  const key = login.trim().toLowerCase();
  return withOrg(db)
    .where((eb) => eb.or([eb('users.username', '=', key), eb('users.email', '=', key)]))
    .executeTakeFirst();
}

export async function findUserById(db: Database, id: number): Promise<UserWithOrg | undefined> {
  return withOrg(db).where('users.id', '=', id).executeTakeFirst();
}

export async function getPermissions(db: Database, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('user_permissions').select('permission').where('user_id', '=', userId).orderBy('permission').execute();
  return rows.map((r) => r.permission);
}

export async function updateUser(db: Database, id: number, values: Partial<Omit<UserRow, 'id'>>): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...values, updated_at: nowS() })
    .where('id', '=', id)
    .execute();
}

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

/** Whether another user (any organisation) already has this e-mail address or username. */
export async function emailInUse(db: Database, email: string, exceptId?: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('email', '=', email), eb('username', '=', email)]))
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst();
  return row !== undefined;
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
