import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { pagingFields, recordId, tooLongMessage } from '../api/inputs.ts';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';
import { canGrant } from '../permissions/registry.ts';

/** The texts of the organisation-user screens (spec 1 §5, §8), and the few the spec leaves to us. */
export const USER_MESSAGES = {
  givenNameRequired: 'You must enter a given name',
  surnameRequired: 'You must enter a surname',
  emailRequired: 'You must enter an email address',
  emailInvalid: 'You must enter a valid email address',
  selfAdministrator: 'You may not revoke this permission from yourself',
  emailTaken: 'A user with this email address already exists.',
  /** An address another organisation's user has: refused without saying so (issue 9, item 7). */
  emailUnavailable: 'This email address cannot be used for a new user. Please use another address.',
  tooManyUnavailable: 'Too many email addresses could not be used. Please wait {minutes} minutes and try again.',
  listFailed: 'Failed to obtain a list of users.',
  userFailed: 'Failed to obtain user information.',
  permissionsFailed: 'Failed to obtain a list of permissions.',
  createdTitle: 'User Created',
  updatedTitle: 'User Updated',
  noUsers: 'No users.',
  createConfirm: 'An email will be sent to {email} with a link to choose a password. Create the user?',
} as const;

export const unknownPermissionMessage = (p: string) => `Unknown permission: ${p}.`;
export const notHeldPermissionMessage = (p: string) => `You may not grant or revoke ${p}, because you do not hold it yourself.`;
/** Why a manager may not edit a user who holds more than they do (their e-mail would let them reset that user's password). */
export const outrankedUserMessage = (p: string) => `You may not edit this user, because they hold ${p} and you do not.`;
/** The first permission a user holds that the editor does not (none when editing oneself): the editor may not edit them. */
export const outrankingPermission = (editor: { id: number; permissions: readonly string[] }, user: { id: number; permissions: readonly string[] }) =>
  user.id === editor.id ? undefined : user.permissions.find((p) => !canGrant(editor.permissions, p));

export const orgUser = z.object({
  id: z.number(),
  givenName: z.string(),
  surname: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
});
export type OrgUser = z.infer<typeof orgUser>;

const required = (message: string, field: string) => z.string({ error: message }).trim().min(1, message).max(200, tooLongMessage(field, 200));

/** The user form: given name, surname, email and the permissions granted. */
export const userBody = z.object({
  givenName: required(USER_MESSAGES.givenNameRequired, 'The given name'),
  surname: required(USER_MESSAGES.surnameRequired, 'The surname'),
  email: z
    .string({ error: USER_MESSAGES.emailRequired })
    .trim()
    .min(1, USER_MESSAGES.emailRequired)
    .max(254, tooLongMessage('The email address', 254))
    .pipe(z.email({ error: USER_MESSAGES.emailInvalid }))
    .transform((e) => e.toLowerCase()),
  permissions: z.array(z.string().max(200)).max(200).default([]),
});
export type UserBody = z.input<typeof userBody>;

export const usersQuery = z.object(pagingFields(200, DEFAULT_PAGE_SIZE));

export const userParams = z.object({ id: recordId('user') });

export const usersReply = okReply(z.object({ users: z.array(orgUser), total: z.number() }));
export const userReply = okReply(orgUser);

export const permissionInfo = z.object({ name: z.string(), displayName: z.string(), description: z.string() });
export const availablePermissionsReply = okReply(z.object({ permissions: z.array(permissionInfo) }));
