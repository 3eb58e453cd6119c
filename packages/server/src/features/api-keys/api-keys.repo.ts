import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';

/** A key's allow-list as stored (a JSON array of entries). */
export const parseAllowList = (json: string): string[] => z.array(z.string()).parse(JSON.parse(json));

/** A key's scopes as stored (a JSON array of permission names). */
export const parseScopes = (json: string): string[] => z.array(z.string()).parse(JSON.parse(json));

const columns = ['id', 'key_name', 'ip_whitelist', 'scopes', 'openadr_scopes', 'status', 'created_at', 'last_used_at'] as const;

export async function insertKey(
  db: Database,
  v: { organisationId: number; userId: number; name: string; hash: string; ipWhitelist: string[]; scopes: string[]; openadrScopes: string[] },
) {
  return db
    .insertInto('api_keys')
    .values({
      organisation_id: v.organisationId,
      user_id: v.userId,
      key_name: v.name,
      key_hash: v.hash,
      ip_whitelist: JSON.stringify(v.ipWhitelist),
      scopes: JSON.stringify(v.scopes),
      openadr_scopes: JSON.stringify(v.openadrScopes),
      status: 'VALID',
      created_at: nowS(),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/** The keys of one user of one organisation, newest first. */
export async function listKeys(db: Database, organisationId: number, userId: number) {
  return db
    .selectFrom('api_keys')
    .select(columns)
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findKey(db: Database, organisationId: number, userId: number, id: number) {
  return db
    .selectFrom('api_keys')
    .select(columns)
    .where('id', '=', id)
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Whether a key is still valid (not revoked): links it made die with it. */
export async function keyValid(db: Database, id: number): Promise<boolean> {
  return (await db.selectFrom('api_keys').select('id').where('id', '=', id).where('status', '=', 'VALID').executeTakeFirst()) !== undefined;
}

export async function revokeKey(db: Database, id: number): Promise<void> {
  await db.updateTable('api_keys').set({ status: 'REVOKED', revoked_at: nowS() }).where('id', '=', id).where('status', '=', 'VALID').execute();
}

/** A valid key by the hash of its secret, with the owner's state. */
export async function findValidKeyByHash(db: Database, hash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'api_keys.organisation_id',
      'api_keys.ip_whitelist',
      'api_keys.scopes',
      'api_keys.last_used_at',
      'users.active',
    ])
    .where('api_keys.key_hash', '=', hash)
    .where('api_keys.status', '=', 'VALID')
    .executeTakeFirst();
}

/** Records use at most once a minute, so that busy keys do not write on every request. */
export async function touchKey(db: Database, id: number): Promise<void> {
  const now = nowS();
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - 60)]))
    .execute();
}
