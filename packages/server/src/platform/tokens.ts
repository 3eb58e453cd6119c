import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
  /** 'pending' until the second factor has been given, when the user has two-factor on. */
  mfa: 'pending' | 'done';
  /** The sign-in (refresh token family) the token was issued for: once it ends, so does the token. */
  session?: string;
}

/** Signs a short-lived access token (JWT, HS256) for one user. */
export async function signAccessToken(key: Buffer, claims: AccessClaims, ttlS: number): Promise<{ token: string; expiresAt: number }> {
  const expiresAt = Math.floor(Date.now() / 1000) + ttlS;
  const token = await new SignJWT({ mfa: claims.mfa, ...(claims.session ? { sid: claims.session } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(key);
  return { token, expiresAt };
}

/** The claims of a valid, unexpired access token with its id and expiry, or null. */
export async function verifyAccessToken(key: Buffer, token: string): Promise<(AccessClaims & { id: string; expiresAt: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || (payload.mfa !== 'pending' && payload.mfa !== 'done')) return null;
    if (typeof payload.jti !== 'string' || typeof payload.exp !== 'number') return null;
    return { userId, mfa: payload.mfa, id: payload.jti, expiresAt: payload.exp, ...(typeof payload.sid === 'string' ? { session: payload.sid } : {}) };
  } catch {
    return null;
  }
}

/** A random opaque token (for refresh cookies, reset links) and the hash we store instead of it. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Signs the remember-this-browser cookie: the device record's id, for one user, until it expires. */
export async function signDeviceToken(key: Buffer, userId: number, deviceId: string, expiresAt: number): Promise<string> {
  return new SignJWT({ did: deviceId }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(userId)).setExpirationTime(expiresAt).sign(key);
}

export async function verifyDeviceToken(key: Buffer, token: string): Promise<{ userId: number; deviceId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (typeof payload.did !== 'string') return null;
    return { userId: Number(payload.sub), deviceId: payload.did };
  } catch {
    return null;
  }
}
