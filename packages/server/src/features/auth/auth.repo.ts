import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import type { UserRow } from '../../db/schema.ts';
import type { UserWithOrg } from '../../platform/guard.ts';

/** Stores a refresh token (its hash) in a family; a family is one sign-in and all its rotations. */
export async function insertRefreshToken(db: Database, v: { userId: number; family: string; hash: string; expiresAt: number }) {
  await db
    .insertInto('refresh_tokens')
    .values({ id: randomUUID(), user_id: v.userId, family: v.family, token_hash: v.hash, expires_at: v.expiresAt, created_at: nowS() })
    .execute();
}

export async function findRefreshToken(db: Database, hash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Marks a token used; false when another request used it first. */
export async function markRefreshTokenUsed(db: Database, id: string): Promise<boolean> {
  const r = await db.updateTable('refresh_tokens').set({ used_at: nowS() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function revokeFamily(db: Database, family: string) {
  await db.updateTable('refresh_tokens').set({ revoked_at: nowS() }).where('family', '=', family).where('revoked_at', 'is', null).execute();
}

export async function insertDevice(db: Database, userId: number, expiresAt: number): Promise<string> {
  const id = randomUUID();
  await db.insertInto('remembered_devices').values({ id, user_id: userId, expires_at: expiresAt, created_at: nowS() }).execute();
  return id;
}

export async function findLiveDevice(db: Database, id: string, userId: number) {
  return db
    .selectFrom('remembered_devices')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowS())
    .executeTakeFirst();
}

/** Forgets every remembered browser of a user: the next sign-in asks for the code again. */
export async function revokeDevices(db: Database, userId: number) {
  await db.updateTable('remembered_devices').set({ revoked_at: nowS() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Failed sign-ins per key since a time, for each key asked about. */
export async function countFailures(db: Database, keys: string[], since: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('login_failures')
    .select(['key', (eb) => eb.fn.countAll<number>().as('n')])
    .where('key', 'in', keys)
    .where('at', '>', since)
    .groupBy('key')
    .execute();
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

/** Keys that start with the prefix (LIKE, its wildcards escaped: a login may contain them). */
const likePrefix = (prefix: string) => sql<boolean>`${sql.ref('key')} like ${`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

/** Failed attempts since a time under every key that starts with the prefix (all the pairs of one account). */
export async function countFailuresByPrefix(db: Database, prefix: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(likePrefix(prefix))
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Forgets the failed attempts under every key that starts with the prefix. */
export async function clearFailuresByPrefix(db: Database, prefix: string) {
  await db.deleteFrom('login_failures').where(likePrefix(prefix)).execute();
}

export async function recordFailures(db: Database, keys: string[]) {
  const at = nowS();
  await db
    .insertInto('login_failures')
    .values(keys.map((key) => ({ key, at })))
    .execute();
}

export async function clearFailures(db: Database, key: string) {
  await db.deleteFrom('login_failures').where('key', '=', key).execute();
}

export async function pruneFailures(db: Database, before: number) {
  await db.deleteFrom('login_failures').where('at', '<', before).execute();
}

/** A two-factor-pending token's record, if it has been given a code; expired records are dropped first. */
export async function findPendingToken(db: Database, id: string) {
  await db.deleteFrom('mfa_pending_tokens').where('expires_at', '<', nowS()).execute();
  return db.selectFrom('mfa_pending_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countPendingTokenFailure(db: Database, id: string, expiresAt: number) {
  await db
    .insertInto('mfa_pending_tokens')
    .values({ id, failures: 1, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ failures: sql<number>`${sql.ref('mfa_pending_tokens.failures')} + 1` }))
    .execute();
}

/** Uses a two-factor-pending token up; false when another request used it first. */
export async function usePendingToken(db: Database, id: string, expiresAt: number): Promise<boolean> {
  const now = nowS();
  const r = await db
    .insertInto('mfa_pending_tokens')
    .values({ id, used_at: now, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ used_at: now }).where('mfa_pending_tokens.used_at', 'is', null))
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Whether a sign-in has ended: logged out, or revoked when one of its refresh tokens was replayed. */
export async function sessionEnded(db: Database, family: string): Promise<boolean> {
  const row = await db.selectFrom('refresh_tokens').select('id').where('family', '=', family).where('revoked_at', 'is not', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

// Identity: who a user is, for signing in and for the guard of every call.

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
