import { randomUUID } from 'node:crypto';
import { type Database, nowS } from '../../db/database.ts';
import type { PasswordTokenTable } from './password.tables.ts';

export async function insertToken(
  db: Database,
  v: { userId: number; purpose: PasswordTokenTable['purpose']; hash: string; expiresAt: number; requestedFrom: string | null },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('password_tokens')
    .values({ id, user_id: v.userId, purpose: v.purpose, token_hash: v.hash, expires_at: v.expiresAt, requested_from: v.requestedFrom, created_at: nowS() })
    .execute();
  return id;
}

export async function findTokenByHash(db: Database, hash: string) {
  return db.selectFrom('password_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Uses a token once: false when it was used, disavowed or expired meanwhile (another request won). */
export async function consumeToken(db: Database, id: string): Promise<boolean> {
  const now = nowS();
  const r = await db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('disavowed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends every link of a user that could still be used. */
export async function expireLiveTokens(db: Database, userId: number): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: nowS() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('disavowed_at', 'is', null)
    .execute();
}

/** Marks a token disavowed; false when it already was. */
export async function disavowToken(db: Database, id: string): Promise<boolean> {
  const r = await db.updateTable('password_tokens').set({ disavowed_at: nowS() }).where('id', '=', id).where('disavowed_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function countTokensSince(db: Database, userId: number, purpose: PasswordTokenTable['purpose'], since: number): Promise<number> {
  const row = await db
    .selectFrom('password_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findActiveUserByEmail(db: Database, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).where('active', '=', 1).executeTakeFirst();
}

/** Sets a new password hash; with `endSessions`, every session of the user ends (their refresh tokens). */
export async function setPassword(db: Database, userId: number, passwordHash: string, opts: { endSessions: boolean }): Promise<void> {
  const now = nowS();
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
  if (!opts.endSessions) return;
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
