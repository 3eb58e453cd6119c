import { z } from 'zod';
import { tooLongMessage } from '../api/inputs.ts';
import { describePasswordFailures, passwordFailures } from '../auth/password-rules.ts';

/** The texts of the password flows (spec 1 §5, §8), and the few the spec leaves to us. */
export const PASSWORD_MESSAGES = {
  emailRequired: 'Enter your email address.',
  emailInvalid: 'Enter a valid email address.',
  resetRequested: 'If an account uses that email address, we have sent it a link to reset its password. The link works once, within the next hour.',
  resetRequestFailed: "Well that didn't work. Please try again.",
  linkInvalid: 'Your reset password link is no longer valid. You may request a new password reset by visiting the Forgot Password form.',
  linkMissing: 'The link has no token.',
  passwordReset: 'Your password has been reset.',
  newPasswordRequired: 'Enter a new password.',
  confirmationRequired: 'Confirm the new password.',
  resetMismatch: 'Passwords do not match.',
  disavowed: 'This password reset link has been deactivated, and our support team has been emailed so that they can look into it.',
  currentRequired: 'Enter your current password.',
  inlineNewRequired: 'Enter your new password.',
  inlineConfirmRequired: 'Confirm your new password.',
  inlineMismatch: "Passwords don't match.",
  currentIncorrect: 'Incorrect current password',
  changeFailedTitle: 'Failed to change password',
  changeFailed: 'An unknown error occurred, please try again later.',
  changedTitle: 'Changed password',
  changed: 'Successfully changed your password.',
} as const;

const required = (message: string) => z.string({ error: message }).min(1, message).max(1024, tooLongMessage('A password', 1024));

/** A new password that meets the rules of spec 1 §5, reported on the named field. */
function checkRules(password: string, path: string, ctx: z.RefinementCtx) {
  const failures = passwordFailures(password);
  if (failures.length) ctx.addIssue({ code: 'custom', path: [path], message: describePasswordFailures(failures) });
}

export const forgotPasswordBody = z.object({
  email: z
    .string({ error: PASSWORD_MESSAGES.emailRequired })
    .trim()
    .min(1, PASSWORD_MESSAGES.emailRequired)
    .max(254, tooLongMessage('The email address', 254))
    .pipe(z.email({ error: PASSWORD_MESSAGES.emailInvalid })),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const messageReply = z.object({ status: z.literal('OK'), message: z.string() });
export type MessageReply = z.infer<typeof messageReply>;

export const tokenQuery = z.object({ token: z.string({ error: PASSWORD_MESSAGES.linkMissing }).min(1, PASSWORD_MESSAGES.linkMissing).max(200) });

/**
 * Whether a password link still works, and (when it does) what it is for: 'welcome' for a new user's
 * first password, so the page says 'Set your password' rather than 'Reset your password'.
 */
export const verifyTokenReply = z.object({ status: z.literal('OK'), valid: z.boolean(), purpose: z.enum(['reset', 'welcome']).nullable() });
export type VerifyTokenReply = z.infer<typeof verifyTokenReply>;

/** The reset (and set-password) form: the rules, then the confirmation. */
export const changePasswordBody = z
  .object({
    password: required(PASSWORD_MESSAGES.newPasswordRequired),
    confirmPassword: required(PASSWORD_MESSAGES.confirmationRequired),
  })
  .superRefine((v, ctx) => {
    if (v.password) checkRules(v.password, 'password', ctx);
    if (v.password && v.confirmPassword && v.password !== v.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: PASSWORD_MESSAGES.resetMismatch });
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The inline change on the settings page. */
export const inlineChangeBody = z
  .object({
    oldPassword: required(PASSWORD_MESSAGES.currentRequired),
    newPassword: required(PASSWORD_MESSAGES.inlineNewRequired),
    passwordConfirmation: required(PASSWORD_MESSAGES.inlineConfirmRequired),
  })
  .superRefine((v, ctx) => {
    if (v.newPassword) checkRules(v.newPassword, 'newPassword', ctx);
    if (v.newPassword && v.passwordConfirmation && v.newPassword !== v.passwordConfirmation)
      ctx.addIssue({ code: 'custom', path: ['passwordConfirmation'], message: PASSWORD_MESSAGES.inlineMismatch });
  });
export type InlineChangeBody = z.infer<typeof inlineChangeBody>;
