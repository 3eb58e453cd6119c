import type { Account } from '@vpp/shared/account/schemas';
import type { MfaSettings } from '@vpp/shared/auth/schemas';
import type { AlertEmailFrequency } from '@vpp/shared/constants';
import type { AppContext } from '../../platform/context.ts';
import type { ApiError } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { totpUri } from '../../platform/totp.ts';
import { assertAttemptsLeft, findUserById, recordFailedAttempt, updateUser } from '../auth/index.ts';

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
 * the account from the caller's address, and against the address, exactly as failed sign-ins do: a
 * stolen session cannot be used to guess it, nor to lock the owner out from their own address.
 */
export async function checkOwnPassword(ctx: AppContext, userId: number, address: string, password: string, wrong: () => ApiError): Promise<void> {
  const accountKey = `account:${userId}`;
  await assertAttemptsLeft(ctx, accountKey, address);
  const user = await findUserById(ctx.db, userId);
  if (!(await verifyPassword(password, user?.password_hash))) {
    await recordFailedAttempt(ctx, accountKey, address);
    throw wrong();
  }
}
