import { randomUUID } from 'node:crypto';
import type { LoginReply } from '@vpp/shared/auth/schemas';
import { REMEMBER_DEVICE_S } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { hashToken, newOpaqueToken, signAccessToken, signDeviceToken, verifyAccessToken, verifyDeviceToken } from '../../platform/tokens.ts';
import { checkTotp, newTotpSecret, totpUri } from '../../platform/totp.ts';
import * as repo from './auth.repo.ts';
import { findUserById, findUserByLogin, updateUser } from './auth.repo.ts';

/** A signed-in session: the access token for the reply and the refresh token for the cookie. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: number;
}

/** How long the half-signed-in token (password given, code not yet) lives. */
const MFA_PENDING_TTL_S = 600;

async function startSession(ctx: AppContext, userId: number, family: string = randomUUID()): Promise<Session> {
  const { token: refreshToken, hash } = newOpaqueToken();
  const refreshExpiresAt = nowS() + ctx.config.REFRESH_TOKEN_TTL_S;
  await repo.insertRefreshToken(ctx.db, { userId, family, hash, expiresAt: refreshExpiresAt });
  const { token } = await signAccessToken(ctx.keys.access, { userId, mfa: 'done', session: family }, ctx.config.ACCESS_TOKEN_TTL_S);
  return { accessToken: token, refreshToken, refreshExpiresAt };
}

/**
 * Failed attempts (wrong passwords, wrong codes) are recorded under the pair of the account and the
 * address they came from, and under the address. The account's limit counts one pair only, so that
 * failures from elsewhere cannot lock the owner out (issue 9, item 6); all the account's pairs
 * together only make its captcha costlier (see captchaFactor).
 */
const pairKey = (accountKey: string, address: string) => `${accountKey}|address:${address}`;
const addressKey = (address: string) => `address:${address}`;

/** Refuses the attempt while this account from this address, or this address, has failed too often. */
export async function assertAttemptsLeft(ctx: AppContext, accountKey: string, address: string) {
  const { LOGIN_FAILURE_WINDOW_S: window, LOGIN_MAX_FAILURES_PER_ACCOUNT, LOGIN_MAX_FAILURES_PER_ADDRESS } = ctx.config;
  await repo.pruneFailures(ctx.db, nowS() - window);
  const [pair, addr] = [pairKey(accountKey, address), addressKey(address)];
  const counts = await repo.countFailures(ctx.db, [pair, addr], nowS() - window);
  if ((counts.get(pair) ?? 0) >= LOGIN_MAX_FAILURES_PER_ACCOUNT || (counts.get(addr) ?? 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
    throw tooManyRequests(MESSAGES.tooManyAttempts.replace('{minutes}', String(Math.ceil(window / 60))));
  }
}

export async function recordFailedAttempt(ctx: AppContext, accountKey: string, address: string) {
  await repo.recordFailures(ctx.db, [pairKey(accountKey, address), addressKey(address)]);
}

/** A success from an address wipes out that address's failures on the account, and only those. */
export async function clearFailedAttempts(ctx: AppContext, accountKey: string, address: string) {
  await repo.clearFailures(ctx.db, pairKey(accountKey, address));
}

/** Forgets every failed attempt on the account, from every address (its password was just reset). */
export async function clearAllFailedAttempts(db: Database, userId: number) {
  await repo.clearFailuresByPrefix(db, `account:${userId}|`);
}

/** At most this many times the usual captcha work. */
const MAX_CAPTCHA_FACTOR = 64;

/**
 * How many times the usual captcha work a sign-in to this account costs: 1 until it has failed
 * LOGIN_MAX_FAILURES_PER_ACCOUNT times in the window (from any addresses), then doubling with each
 * such number of failures. Someone guessing from many addresses pays more per guess; the owner, from
 * an address that has not failed, still gets in after a longer captcha.
 */
async function captchaFactor(ctx: AppContext, accountKey: string): Promise<number> {
  const { LOGIN_FAILURE_WINDOW_S: window, LOGIN_MAX_FAILURES_PER_ACCOUNT: max } = ctx.config;
  const failures = await repo.countFailuresByPrefix(ctx.db, `${accountKey}|`, nowS() - window);
  return Math.min(2 ** Math.floor(failures / max), MAX_CAPTCHA_FACTOR);
}

/** The count key of a login: the account it names (by username or e-mail alike), or the login itself when none. */
async function accountKeyOf(ctx: AppContext, login: string) {
  const user = await findUserByLogin(ctx.db, login);
  return { user, accountKey: user ? `account:${user.id}` : `login:${login}` };
}

/** A captcha challenge; asked for a login, as costly as a sign-in to that account is now. */
export async function captchaChallenge(ctx: AppContext, login: string | undefined) {
  const key = login?.trim().toLowerCase();
  if (!key) return ctx.captcha.challenge();
  const { accountKey } = await accountKeyOf(ctx, key);
  return ctx.captcha.challenge({ login: key, factor: await captchaFactor(ctx, accountKey) });
}

/**
 * Signs a user in with a solved captcha, a username or e-mail and a password. With two-factor on
 * (and no remembered browser) the reply carries a token that only the code check accepts.
 */
export async function login(
  ctx: AppContext,
  input: { username: string; password: string; captchaToken: string; address: string; deviceCookie?: string },
): Promise<{ reply: LoginReply; session: Session | null }> {
  const solved = await ctx.captcha.verify(input.captchaToken);
  if (!solved) throw badRequest(MESSAGES.captchaRejected, 'captcha_failed');
  const login = input.username.trim().toLowerCase();
  // One count per account, whether it is named by its username or its e-mail address.
  const { user, accountKey } = await accountKeyOf(ctx, login);
  await assertAttemptsLeft(ctx, accountKey, input.address);
  const factor = await captchaFactor(ctx, accountKey);
  // A challenge asked for the username does for the e-mail address too: both name the account.
  const forAccount = solved.login !== null && (solved.login === login || (await accountKeyOf(ctx, solved.login)).accountKey === accountKey);
  if (factor > 1 && (!forAccount || solved.factor < factor)) throw badRequest(MESSAGES.captchaHarder, 'captcha_harder');

  const ok = await verifyPassword(input.password, user?.active ? user.password_hash : null);
  if (!user || !ok) {
    await recordFailedAttempt(ctx, accountKey, input.address);
    throw unauthorized('bad_credentials', MESSAGES.loginFailed);
  }

  if (user.mfa_enabled && !(await isRemembered(ctx, user.id, input.deviceCookie))) {
    let secret = user.totp_secret;
    if (!secret) {
      secret = newTotpSecret();
      await updateUser(ctx.db, user.id, { totp_secret: secret, totp_confirmed: 0 });
    }
    const confirmed = user.totp_confirmed === 1;
    const { token } = await signAccessToken(ctx.keys.access, { userId: user.id, mfa: 'pending' }, MFA_PENDING_TTL_S);
    return {
      reply: { access_token: token, mfaRequired: true, mfa: { confirmed, totpUri: confirmed ? null : totpUri(secret, user.email) } },
      session: null,
    };
  }
  // Only a full sign-in starts the count again: a good password must not wipe out wrong codes.
  await clearFailedAttempts(ctx, accountKey, input.address);
  const session = await startSession(ctx, user.id);
  return { reply: { access_token: session.accessToken, mfaRequired: false, mfa: null }, session };
}

async function isRemembered(ctx: AppContext, userId: number, cookie?: string): Promise<boolean> {
  if (!cookie) return false;
  const device = await verifyDeviceToken(ctx.keys.device, cookie);
  if (!device || device.userId !== userId) return false;
  return (await repo.findLiveDevice(ctx.db, device.deviceId, userId)) !== undefined;
}

/**
 * Checks the caller's authenticator code. The first good code also confirms a new set-up. On
 * success the caller is fully signed in, and with `rememberDevice` gets a two-week device cookie.
 * Wrong codes count against the account and the address exactly as wrong passwords do. The
 * half-signed-in token works once: a good code uses it up, and so do as many wrong codes as an
 * account may fail from one address, wherever they come from, so that each few guesses cost a new
 * sign-in (issue 9, item 7).
 */
export async function verifyCode(
  ctx: AppContext,
  input: { userId: number; token: { id: string; expiresAt: number }; code: string; rememberDevice: boolean; address: string },
): Promise<{ session: Session; deviceCookie: { value: string; expiresAt: number } | null }> {
  const { code, rememberDevice, token } = input;
  const accountKey = `account:${input.userId}`;
  await assertAttemptsLeft(ctx, accountKey, input.address);
  const pending = await repo.findPendingToken(ctx.db, token.id);
  if (pending && (pending.used_at !== null || pending.failures >= ctx.config.LOGIN_MAX_FAILURES_PER_ACCOUNT)) {
    throw unauthorized('unauthorized', MESSAGES.sessionExpired);
  }
  const user = await findUserById(ctx.db, input.userId);
  if (!user?.totp_secret) throw badRequest('Two-factor authentication has not been set up for this account.', 'mfa_not_configured');
  const check = await checkTotp(user.totp_secret, code, user.totp_last_step);
  if (!check.ok) {
    // A replayed code was right once: it tells a guesser nothing, so only wrong codes count.
    if (check.reason !== 'replayed') {
      await recordFailedAttempt(ctx, accountKey, input.address);
      await repo.countPendingTokenFailure(ctx.db, token.id, token.expiresAt);
    }
    const message = check.reason === 'replayed' ? 'This code has already been used. Wait for the next code and try again.' : MESSAGES.codeInvalid;
    throw new ApiError(400, check.reason === 'replayed' ? 'code_reused' : 'invalid_code', message);
  }
  if (!(await repo.usePendingToken(ctx.db, token.id, token.expiresAt))) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
  await updateUser(ctx.db, user.id, { totp_last_step: check.step, totp_confirmed: 1 });
  await clearFailedAttempts(ctx, accountKey, input.address);
  const session = await startSession(ctx, user.id);
  if (!rememberDevice) return { session, deviceCookie: null };
  const expiresAt = nowS() + REMEMBER_DEVICE_S;
  const deviceId = await repo.insertDevice(ctx.db, user.id, expiresAt);
  return { session, deviceCookie: { value: await signDeviceToken(ctx.keys.device, user.id, deviceId, expiresAt), expiresAt } };
}

/**
 * Exchanges a refresh token for a new one and a new access token. A token that was already used
 * means it was stolen or replayed: its whole family is revoked and the caller must sign in again;
 * except within REFRESH_REUSE_GRACE_S of its first use, when the browser most likely never got the
 * reply (a reload or a dropped connection mid-refresh) and the family goes on with a new token.
 */
export async function refresh(ctx: AppContext, token: string | undefined): Promise<Session> {
  const expired = () => unauthorized('unauthorized', MESSAGES.sessionExpired);
  if (!token) throw expired();
  const row = await repo.findRefreshToken(ctx.db, hashToken(token));
  if (!row) throw expired();
  if (row.revoked_at !== null) throw expired();
  if (row.expires_at <= nowS()) throw expired();
  const user = await findUserById(ctx.db, row.user_id);
  if (!user?.active) throw expired();
  const withinGrace = (usedAt: number | null) => usedAt !== null && nowS() - Number(usedAt) <= ctx.config.REFRESH_REUSE_GRACE_S;
  if (row.used_at !== null || !(await repo.markRefreshTokenUsed(ctx.db, row.id))) {
    const used = row.used_at ?? (await repo.findRefreshToken(ctx.db, row.token_hash))?.used_at ?? null;
    if (!withinGrace(used)) {
      await repo.revokeFamily(ctx.db, row.family);
      throw expired();
    }
  }
  return startSession(ctx, row.user_id, row.family);
}

/**
 * Ends the session of the refresh cookie and the session of the bearer access token: a client that
 * holds only the access token (a script, a browser whose cookie was lost) must be able to end it too
 * (issue 9, item 7). A half-signed-in token is used up instead, as it belongs to no session yet.
 */
export async function logout(ctx: AppContext, refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
  if (refreshToken) {
    const row = await repo.findRefreshToken(ctx.db, hashToken(refreshToken));
    if (row) await repo.revokeFamily(ctx.db, row.family);
  }
  const claims = accessToken ? await verifyAccessToken(ctx.keys.access, accessToken) : null;
  if (claims?.session) await repo.revokeFamily(ctx.db, claims.session);
  else if (claims?.mfa === 'pending') await repo.usePendingToken(ctx.db, claims.id, claims.expiresAt);
}

/** The caller a user id stands for, with their permissions as they are now; null for an inactive user. */
export async function callerOf(ctx: AppContext, userId: number, mfa: AuthUser['mfa'], via: AuthUser['via']): Promise<AuthUser | null> {
  const row = await findUserById(ctx.db, userId);
  if (!row?.active) return null;
  const permissions = await repo.getPermissions(ctx.db, row.id);
  return { id: row.id, organisationId: row.organisation_id, permissions, mfa, row, via };
}

/**
 * The caller of a session's access token. The token dies with its sign-in, not only when it expires;
 * a session still waiting for its second factor may call only the routes that take it ('mfa').
 */
export async function sessionCaller(ctx: AppContext, token: string, auth: 'user' | 'mfa' | 'session'): Promise<AuthUser> {
  const claims = await verifyAccessToken(ctx.keys.access, token);
  if (!claims) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
  if (claims.session && (await repo.sessionEnded(ctx.db, claims.session))) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
  const user = await callerOf(ctx, claims.userId, claims.mfa, {
    kind: 'session',
    tokenId: claims.id,
    expiresAt: claims.expiresAt,
    session: claims.session ?? null,
  });
  if (!user) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
  if (claims.mfa === 'pending' && auth !== 'mfa') throw unauthorized('mfa_failure', 'Two-factor authentication is required.');
  return user;
}
