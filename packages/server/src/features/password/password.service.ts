import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { MESSAGES } from '@vpp/shared/messages';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, tooManyRequests } from '../../platform/errors.ts';
import { sendMail } from '../../platform/mail.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { hashToken, newOpaqueToken } from '../../platform/tokens.ts';
import { checkOwnPassword } from '../account/index.ts';
import { clearAllFailedAttempts, countFailures, findUserById, recordFailures, revokeDevices } from '../auth/index.ts';
import * as repo from './password.repo.ts';
import type { PasswordTokenTable } from './password.tables.ts';

/** Reset links one account may be sent per hour; more requests get the same reply and no e-mail. */
export const MAX_RESETS_PER_HOUR = 5;

const invalidLink = () => new ApiError(400, 'invalid_token', PASSWORD_MESSAGES.linkInvalid);

/** 3600 → '1 hour', 604800 → '7 days'. */
const duration = (s: number) =>
  s % 86400 === 0 ? `${s / 86400} day${s === 86400 ? '' : 's'}` : s % 3600 === 0 ? `${s / 3600} hour${s === 3600 ? '' : 's'}` : `${Math.round(s / 60)} minutes`;

/**
 * Creates a single-use link token for a user (a reset, or the set-password link of a new user) and
 * queues its e-mail, both in the caller's transaction. Only the token's hash is stored.
 */
export async function issuePasswordLink(
  ctx: AppContext,
  db: Database,
  user: { id: number; email: string; given_name: string },
  purpose: PasswordTokenTable['purpose'],
  requestedFrom: string | null,
): Promise<void> {
  const ttl = purpose === 'reset' ? ctx.config.RESET_TOKEN_TTL_S : ctx.config.WELCOME_TOKEN_TTL_S;
  const { token, hash } = newOpaqueToken();
  await repo.insertToken(db, { userId: user.id, purpose, hash, expiresAt: nowS() + ttl, requestedFrom });
  const base = ctx.config.publicUrl;
  const set = `${base}/password/reset?token=${token}`;
  const disavow = `${base}/password/reset/disavow?token=${token}`;
  const text =
    purpose === 'reset'
      ? [
          `Hello ${user.given_name},`,
          '',
          `Someone asked to reset the password of the VPP Console account ${user.email}. To choose a new password, open this link within ${duration(ttl)}:`,
          '',
          set,
          '',
          'The link works once.',
          '',
          'This was not me: if you did not ask for a new password, open this link to deactivate the reset link and tell our support team:',
          '',
          disavow,
        ]
      : [
          `Hello ${user.given_name},`,
          '',
          `An account has been created for you on the VPP Console, with the email address ${user.email}. To choose your password, open this link within ${duration(ttl)}:`,
          '',
          set,
          '',
          'The link works once. When it has expired, ask for a new one with the Forgot Password form.',
          '',
          'This was not me: if you did not expect this email, open this link to deactivate the link and tell our support team:',
          '',
          disavow,
        ];
  await sendMail(db, {
    to: user.email,
    subject: purpose === 'reset' ? 'Reset your VPP Console password' : 'Your new VPP Console account',
    text: text.join('\n'),
  });
}

/**
 * Sends a reset link when the address belongs to an active account. The caller learns nothing
 * either way: the reply is the same, and a flood of requests from one address is paused.
 */
export async function requestReset(ctx: AppContext, email: string, address: string): Promise<void> {
  const { LOGIN_FAILURE_WINDOW_S: window, LOGIN_MAX_FAILURES_PER_ADDRESS } = ctx.config;
  const addressKey = `reset-address:${address}`;
  const counts = await countFailures(ctx.db, [addressKey], nowS() - window);
  if ((counts.get(addressKey) ?? 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
    throw tooManyRequests(MESSAGES.tooManyAttempts.replace('{minutes}', String(Math.ceil(window / 60))));
  }
  await recordFailures(ctx.db, [addressKey]);
  const user = await repo.findActiveUserByEmail(ctx.db, email);
  if (!user) return;
  if ((await repo.countTokensSince(ctx.db, user.id, 'reset', nowS() - 3600)) >= MAX_RESETS_PER_HOUR) return;
  await ctx.db.transaction().execute((trx) => issuePasswordLink(ctx, trx, user, 'reset', address));
}

/** The token's row when the link can still set a password (unused, not disavowed, unexpired, active user). */
async function liveToken(ctx: AppContext, token: string) {
  const row = await repo.findTokenByHash(ctx.db, hashToken(token));
  if (!row || row.used_at !== null || row.disavowed_at !== null || row.expires_at <= nowS()) return null;
  const user = await findUserById(ctx.db, row.user_id);
  return user?.active ? row : null;
}

/** Whether a link still works, and what it was sent for (null when it does not work). */
export async function verifyToken(ctx: AppContext, token: string): Promise<{ valid: boolean; purpose: 'reset' | 'welcome' | null }> {
  const row = await liveToken(ctx, token);
  return { valid: row !== null, purpose: row?.purpose ?? null };
}

/**
 * Sets the password through a link: the token is used up, other links end, and so do all sessions
 * and remembered browsers.
 */
export async function changePassword(ctx: AppContext, token: string, password: string): Promise<void> {
  const row = await liveToken(ctx, token);
  if (!row) throw invalidLink();
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.consumeToken(trx, row.id))) throw invalidLink();
    await repo.expireLiveTokens(trx, row.user_id);
    await repo.setPassword(trx, row.user_id, hash, { endSessions: true });
    await revokeDevices(trx, row.user_id);
    await clearAllFailedAttempts(trx, row.user_id);
  });
}

/**
 * 'This was not me': the link (and every other live link of the account) stops working, and
 * support is told who, when and from where. Works on a link that was already used (someone else
 * may have used it); a second report changes nothing.
 */
export async function disavow(ctx: AppContext, token: string, address: string): Promise<void> {
  const row = await repo.findTokenByHash(ctx.db, hashToken(token));
  if (!row) throw invalidLink();
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) throw invalidLink();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.disavowToken(trx, row.id))) return;
    await repo.expireLiveTokens(trx, row.user_id);
    const when = (s: number | null) => (s === null ? 'never' : new Date(s * 1000).toISOString());
    await sendMail(trx, {
      to: ctx.config.SUPPORT_EMAIL,
      replyTo: user.email,
      subject: `Password link disavowed: ${user.email}`,
      text: [
        `${user.given_name} ${user.surname} (${user.email}, user ${user.id} of ${user.organisation_name}) says they did not ask for a ${row.purpose === 'reset' ? 'password reset' : 'new account'} link.`,
        '',
        `Link created: ${when(row.created_at)}${row.requested_from ? `, requested from ${row.requested_from}` : ''}`,
        `Link used: ${when(row.used_at)}`,
        `Reported: ${when(nowS())}, from ${address}`,
        '',
        'The link and every other open link of the account have been deactivated.',
      ].join('\n'),
    });
  });
}

/**
 * The inline change on the settings page: the current password, then the new one. Sessions stay;
 * remembered browsers are forgotten, so the next sign-in anywhere asks for the code.
 */
export async function inlineChange(ctx: AppContext, userId: number, oldPassword: string, newPassword: string, address: string): Promise<void> {
  await checkOwnPassword(ctx, userId, address, oldPassword, () => new ApiError(400, 'incorrect_password', PASSWORD_MESSAGES.currentIncorrect));
  const hash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setPassword(trx, userId, hash, { endSessions: false });
    await revokeDevices(trx, userId);
  });
}
