import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';

/**
 * The master secret: SECRET_KEY when set, otherwise one generated on first start and kept in the
 * database, so that every server process of one deployment signs with the same key.
 */
export async function loadMasterSecret(db: Database, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('settings')
    .values({ key: 'secret_key', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'secret_key').executeTakeFirstOrThrow();
  return row.value;
}

/** A key for one purpose (access tokens, captcha, device cookies), derived from the master secret. */
export function deriveKey(master: string, purpose: string): Buffer {
  return createHmac('sha256', master).update(purpose).digest();
}
