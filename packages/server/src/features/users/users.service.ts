import { MESSAGES } from '@vpp/shared/messages';
import { ADMINISTRATOR, canGrant, isKnownPermission, normalizePermission, PERMISSIONS, type PermissionInfo } from '@vpp/shared/permissions/registry';
import {
  notHeldPermissionMessage,
  type OrgUser,
  outrankedUserMessage,
  outrankingPermission,
  USER_MESSAGES,
  unknownPermissionMessage,
} from '@vpp/shared/users/schemas';
import { nowS } from '../../db/database.ts';
import { onDuplicate } from '../../db/unique.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, conflict, notFound, tooManyRequests } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { countFailures, findUserById, recordFailures, updateUser } from '../auth/index.ts';
import { issuePasswordLink } from '../password/index.ts';
import * as repo from './users.repo.ts';
import { createUser } from './users.repo.ts';

type Row = { id: number; given_name: string; surname: string; email: string };
const present = (r: Row, permissions: string[]): OrgUser => ({ id: r.id, givenName: r.given_name, surname: r.surname, email: r.email, permissions });

export interface UserInput {
  givenName: string;
  surname: string;
  email: string;
  permissions: string[];
}

export async function listUsers(ctx: AppContext, caller: AuthUser, page: { limit: number; offset: number }) {
  const { rows, total } = await repo.listOrgUsers(ctx.db, caller.organisationId, page);
  const perms = await repo.permissionsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { users: rows.map((r) => present(r, perms.get(r.id) ?? [])), total };
}

/** A user of the caller's organisation; another organisation's user is not found. */
export async function getUser(ctx: AppContext, caller: AuthUser, id: number): Promise<OrgUser> {
  const row = await repo.findOrgUser(ctx.db, caller.organisationId, id);
  if (!row) throw notFound('user');
  return present(row, (await repo.permissionsOf(ctx.db, [id])).get(id) ?? []);
}

/** The permissions the caller may grant: those they hold themselves (all of them for an administrator). */
export function availablePermissions(caller: AuthUser): PermissionInfo[] {
  return PERMISSIONS.filter((p) => canGrant(caller.permissions, p.name));
}

/** Checks that every permission added or taken away is known and held by the caller; answers the list without duplicates. */
function checkGrants(caller: AuthUser, wanted: string[], before: string[]): string[] {
  const unique = [...new Set(wanted.map((p) => p.trim()))];
  const unknown = unique.find((p) => !isKnownPermission(p));
  if (unknown) throw badRequest(unknownPermissionMessage(unknown), 'unknown_permission');
  const key = (list: string[]) => new Set(list.map(normalizePermission));
  const [w, b] = [key(unique), key(before)];
  const changed = [...unique.filter((p) => !b.has(normalizePermission(p))), ...before.filter((p) => !w.has(normalizePermission(p)))];
  const notHeld = changed.find((p) => !canGrant(caller.permissions, p));
  if (notHeld) throw new ApiError(400, 'permission_not_held', notHeldPermissionMessage(notHeld));
  return unique;
}

/**
 * Refuses an e-mail address another user has. One of the caller's own organisation is named (the
 * list shows it anyway); another organisation's is refused without saying that it exists there
 * (issue 9, item 7). An address is the login, so a refusal cannot be avoided altogether: such
 * refusals are counted per organisation and pause the address checks when they pile up, so that
 * nobody can sweep a list of addresses for the console's users.
 */
async function assertEmailFree(ctx: AppContext, caller: AuthUser, email: string, exceptId?: number) {
  const { LOGIN_FAILURE_WINDOW_S: window, LOGIN_MAX_FAILURES_PER_ACCOUNT: max } = ctx.config;
  const probeKey = `email-unavailable:${caller.organisationId}`;
  const paused = () => tooManyRequests(USER_MESSAGES.tooManyUnavailable.replace('{minutes}', String(Math.ceil(window / 60))));
  if (((await countFailures(ctx.db, [probeKey], nowS() - window)).get(probeKey) ?? 0) >= max) throw paused();
  const owner = await repo.emailOwner(ctx.db, email, exceptId);
  if (!owner) return;
  if (owner.organisation_id === caller.organisationId) throw conflict(USER_MESSAGES.emailTaken, 'email_taken');
  await recordFailures(ctx.db, [probeKey]);
  throw conflict(USER_MESSAGES.emailUnavailable, 'email_unavailable');
}

/**
 * The refusal of a save whose address (or the username following it) a concurrent save took
 * between the check and the insert: the check's own 409, as it reads now.
 */
async function takenMeanwhile(ctx: AppContext, caller: AuthUser, email: string, exceptId?: number): Promise<Error> {
  try {
    await assertEmailFree(ctx, caller, email, exceptId);
  } catch (err) {
    return err as Error;
  }
  return conflict(MESSAGES.savedMeanwhile);
}

/**
 * Creates a user of the caller's organisation with no password, and e-mails them a single-use link
 * to choose one (the reset-link mechanism, valid WELCOME_TOKEN_TTL_S).
 */
export async function createOrgUser(ctx: AppContext, caller: AuthUser, input: UserInput, address: string): Promise<OrgUser> {
  const permissions = checkGrants(caller, input.permissions, []);
  await assertEmailFree(ctx, caller, input.email);
  const save = () =>
    ctx.db.transaction().execute(async (trx) => {
      const uid = await createUser(trx, {
        organisationId: caller.organisationId,
        username: input.email,
        email: input.email,
        givenName: input.givenName,
        surname: input.surname,
        passwordHash: null,
        permissions,
      });
      await issuePasswordLink(ctx, trx, { id: uid, email: input.email, given_name: input.givenName }, 'welcome', address);
      return uid;
    });
  const id = await onDuplicate(save, () => takenMeanwhile(ctx, caller, input.email));
  return getUser(ctx, caller, id);
}

/**
 * Updates a user of the caller's organisation. Only someone who holds every permission the user
 * holds may edit them (a new e-mail address would let the editor reset that user's password), and
 * nobody may take the administrator permission from themselves.
 */
export async function updateOrgUser(ctx: AppContext, caller: AuthUser, id: number, input: UserInput): Promise<OrgUser> {
  const existing = await getUser(ctx, caller, id);
  const outranking = outrankingPermission(caller, existing);
  if (outranking) throw new ApiError(403, 'forbidden', outrankedUserMessage(outranking));
  const isAdmin = (list: string[]) => list.some((p) => normalizePermission(p) === ADMINISTRATOR);
  if (id === caller.id && isAdmin(existing.permissions) && !isAdmin(input.permissions)) {
    throw badRequest(USER_MESSAGES.selfAdministrator, 'self_revoke');
  }
  const permissions = checkGrants(caller, input.permissions, existing.permissions);
  if (input.email !== existing.email) await assertEmailFree(ctx, caller, input.email, id);
  // A user created here signs in with their e-mail address as username: it follows the address.
  const followsEmail = (await findUserById(ctx.db, id))?.username.toLowerCase() === existing.email.toLowerCase();
  const save = () =>
    ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, id, { given_name: input.givenName, surname: input.surname, email: input.email, ...(followsEmail && { username: input.email }) });
      await repo.setPermissions(trx, id, permissions);
    });
  await onDuplicate(save, () => takenMeanwhile(ctx, caller, input.email, id));
  return getUser(ctx, caller, id);
}
