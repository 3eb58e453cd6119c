import { z } from 'zod';
import { tooLongMessage } from '../api/inputs.ts';
import { MESSAGES } from '../messages.ts';

export const loginBody = z.object({
  username: z
    .string({ error: 'Enter your username or e-mail address.' })
    .trim()
    .min(1, 'Enter your username or e-mail address.')
    .max(254, tooLongMessage('The username or e-mail address', 254)),
  password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(1024, tooLongMessage('The password', 1024)),
  captchaToken: z.string({ error: MESSAGES.captchaRequired }).min(1, MESSAGES.captchaRequired).max(10_000),
});
export type LoginBody = z.infer<typeof loginBody>;

/** A challenge for one login (the username or e-mail being typed): as costly as signing in to that account now is. */
export const captchaQuery = z.object({ login: z.string().max(254).optional() });

export const mfaState = z.object({
  confirmed: z.boolean(),
  /** Only while two-factor is not yet set up: the otpauth:// URI for the authenticator app. */
  totpUri: z.string().nullable(),
});

export const loginReply = z.object({
  access_token: z.string(),
  mfaRequired: z.boolean(),
  mfa: mfaState.nullable(),
});
export type LoginReply = z.infer<typeof loginReply>;

export const tokenReply = z.object({ status: z.literal('OK'), access_token: z.string() });
export type TokenReply = z.infer<typeof tokenReply>;

/** Six digits once spaces are removed. */
export const totpCode = z
  .string()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, MESSAGES.codeLength));

export const verifyCodeBody = z.object({
  totpCode,
  rememberDevice: z.boolean().default(false),
});

export const CODE_PREFERENCES = ['APP'] as const;
export const codePreferenceBody = z.object({ codePreference: z.enum(CODE_PREFERENCES) });

export const mfaSettings = z.object({
  confirmed: z.boolean(),
  codePreference: z.enum(CODE_PREFERENCES),
  phoneNumberMasked: z.string().nullable(),
  phoneNumberConfirmed: z.boolean(),
  totpUri: z.string().nullable(),
});
export type MfaSettings = z.infer<typeof mfaSettings>;
