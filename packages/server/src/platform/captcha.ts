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
    /**
     * A fresh challenge for the widget. One asked for a login is `factor` times the usual work, and
     * says so in its signed data, so that the sign-in can tell it from an ordinary one.
     */
    async challenge(forLogin?: { login: string; factor: number }) {
      const work = cost * (forLogin?.factor ?? 1);
      return createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        counter: randomInt(Math.floor(work / 2), work),
        deriveKey: shaDeriveKey,
        hmacSignatureSecret: hmacSecret,
        expiresAt: nowS() + CAPTCHA_TTL_S,
        ...(forLogin && { data: { login: forLogin.login, factor: forLogin.factor } }),
      });
    },
    /**
     * Whether the widget's payload solves one of our challenges, unexpired and never used before:
     * null when it does not, else the login and work factor the challenge was made for (none, 1).
     */
    async verify(payload: string): Promise<{ login: string | null; factor: number } | null> {
      const result = await verify(payload, shaDeriveKey, hmacSecret, undefined, store);
      // Forget used ids once their challenges could no longer be replayed anyway.
      await db
        .deleteFrom('captcha_used')
        .where('used_at', '<', nowS() - 2 * CAPTCHA_TTL_S)
        .execute();
      if (result.error !== null || !result.payload || !('challenge' in result.payload)) return null;
      const data = result.payload.challenge.parameters.data;
      return { login: typeof data?.login === 'string' ? data.login : null, factor: typeof data?.factor === 'number' ? data.factor : 1 };
    },
  };
}
export type Captcha = ReturnType<typeof createCaptcha>;
