import { type Account, type AlertEmailFrequency, MESSAGES, type MfaSettings } from '@vpp/shared';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { ApiError } from '../../platform/errors.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { totpUri } from '../../platform/totp.ts';
import { countFailures, findUserById, recordFailures, updateUser } from '../auth/index.ts';

/** The account reply: who the caller is, their organisation and their permissions. */
export function presentAccount(user: AuthUser): Account {
  const r = user.row;
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    givenName: r.given_name,
    surname: r.surname,
    name: `${r.given_name} ${r.surname}`.trim(),
    timezone: r.timezone,
    suborg_type: r.suborg_type,
    suborg_name: r.organisation_name,
    alertEmailFrequency: r.alert_email_frequency as Account['alertEmailFrequency'],
    mfaEnabled: r.mfa_enabled === 1,
    permissions: user.permissions,
  };
}

export async function setTimezone(ctx: AppContext, userId: number, timezone: string) {
  await updateUser(ctx.db, userId, { timezone });
}

export function presentMfaSettings(user: AuthUser): MfaSettings {
  const r = user.row;
  const confirmed = r.totp_confirmed === 1;
  return {
    confirmed,
    codePreference: 'APP',
    phoneNumberMasked: null,
    phoneNumberConfirmed: false,
    totpUri: !confirmed && r.totp_secret ? totpUri(r.totp_secret, r.email) : null,
  };
}

export async function setCodePreference(ctx: AppContext, userId: number, codePreference: 'APP') {
  await updateUser(ctx.db, userId, { code_preference: codePreference });
}

export async function setAlertEmailFrequency(ctx: AppContext, userId: number, frequency: AlertEmailFrequency) {
  await updateUser(ctx.db, userId, { alert_email_frequency: frequency });
}

/**
 * Checks the signed-in user's own password (inline change, API keys). Wrong guesses count against
 * the account exactly as failed sign-ins do, so a stolen session cannot be used to guess it.
 */
export async function checkOwnPassword(ctx: AppContext, userId: number, password: string, wrong: () => ApiError): Promise<void> {
  const { LOGIN_FAILURE_WINDOW_S: window, LOGIN_MAX_FAILURES_PER_ACCOUNT } = ctx.config;
  const key = `account:${userId}`;
  const counts = await countFailures(ctx.db, [key], nowS() - window);
  if ((counts.get(key) ?? 0) >= LOGIN_MAX_FAILURES_PER_ACCOUNT) {
    throw tooManyRequests(MESSAGES.tooManyAttempts.replace('{minutes}', String(Math.ceil(window / 60))));
  }
  const user = await findUserById(ctx.db, userId);
  if (!(await verifyPassword(password, user?.password_hash))) {
    await recordFailures(ctx.db, [key]);
    throw wrong();
  }
}
