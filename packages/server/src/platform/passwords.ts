import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const N = 16384;
const R = 8;
const P = 1;
const LEN = 32;

/**
 * An scrypt hash of the password, in the self-describing form `scrypt$N$r$p$salt$hash`. The cost is
 * the product's (N = 16384) unless a test fixture asks for less: verification reads N from the hash,
 * so the tests' users sign in cheaply while every hash the product writes keeps its cost.
 */
export async function hashPassword(password: string, cost: { N?: number } = {}): Promise<string> {
  const n = cost.N ?? N;
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, LEN, { N: n, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', n, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Compared against when the account does not exist, so that both answers take the same time.
const DUMMY = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Whether the password matches the stored hash; a missing hash costs the same and never matches. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = (stored ?? DUMMY).split('$');
  if (kind !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return stored != null && timingSafeEqual(actual, expected);
}
