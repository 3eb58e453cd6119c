import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey as shaDeriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import type { Database } from '../db/database.ts';
import { nowS } from '../db/database.ts';

/** How long a challenge may be solved and submitted, in seconds. */
export const CAPTCHA_TTL_S = 600;

/**
 * ALTCHA proof-of-work captcha, self-hosted: challenges are signed with the server's key, a solved
 * challenge is accepted once (its id is kept in `captcha_used`) and only before it expires.
 */
export function createCaptcha(db: Database, hmacSecret: string, cost: number) {
  const store = {
    get: () => undefined,
    set: () => undefined,
    setIfAbsent: async (key: string) => {
      const res = await db
        .insertInto('captcha_used')
        .values({ id: key, used_at: nowS() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };

  return {
    /** A fresh challenge for the widget. */
    async challenge() {
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(Math.floor(cost / 2), cost),
        deriveKey: shaDeriveKey,
        hmacSignatureSecret: hmacSecret,
        expiresAt: nowS() + CAPTCHA_TTL_S,
      });
    },
    /** Whether the widget's payload solves one of our challenges, unexpired and never used before. */
    async verify(payload: string): Promise<boolean> {
      const result = await verify(payload, shaDeriveKey, hmacSecret, undefined, store);
      // Forget used ids once their challenges could no longer be replayed anyway.
      await db
        .deleteFrom('captcha_used')
        .where('used_at', '<', nowS() - 2 * CAPTCHA_TTL_S)
        .execute();
      return result.error === null;
    },
  };
}
export type Captcha = ReturnType<typeof createCaptcha>;
