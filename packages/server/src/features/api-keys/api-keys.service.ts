import { randomBytes } from 'node:crypto';
import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  type ApiKey,
  addressAllowed,
  findBadAllowEntry,
  ipParseFailure,
  scopeNotHeldMessage,
} from '@vpp/shared/account/api-keys';
import { ADMINISTRATOR, canGrant, READ_ONLY_PERMISSIONS, registryName } from '@vpp/shared/permissions/registry';
import { unknownPermissionMessage } from '@vpp/shared/users/schemas';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { hashToken } from '../../platform/tokens.ts';
import { checkOwnPassword } from '../account/index.ts';
import { callerOf } from '../auth/index.ts';
import * as repo from './api-keys.repo.ts';

type KeyRow = Awaited<ReturnType<typeof repo.listKeys>>[number];

/** Whether a bearer credential is one of our API keys rather than a JWT. */
const invalidKey = () => new ApiError(401, 'invalid_api_key', 'This API key is not valid, or has been revoked.');

export const isApiKey = (credential: string) => credential.startsWith(API_KEY_PREFIX);

function present(row: KeyRow): ApiKey {
  return {
    keyId: row.id,
    keyName: row.key_name,
    ipWhitelist: repo.parseAllowList(row.ip_whitelist),
    scopes: repo.parseScopes(row.scopes),
    openadrScopes: repo.parseScopes(row.openadr_scopes),
    status: row.status,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** The password from the query string: base64 of the UTF-8 text (spec 1 §7). */
const decodePassword = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

const rejected = () => new ApiError(400, 'password_rejected', API_KEY_MESSAGES.passwordRejected);

export async function listKeys(ctx: AppContext, user: { id: number; organisationId: number }): Promise<ApiKey[]> {
  return (await repo.listKeys(ctx.db, user.organisationId, user.id)).map(present);
}

/**
 * The scopes of a new key in registry spelling, without duplicates: each one a permission the owner
 * holds (400 naming the first that is unknown or not held). Left out, the owner's read-only ones.
 */
export function checkScopes(ownerPermissions: readonly string[], wanted: readonly string[] | undefined): string[] {
  if (wanted === undefined) return READ_ONLY_PERMISSIONS.filter((p) => canGrant(ownerPermissions, p));
  const scopes: string[] = [];
  for (const given of wanted) {
    const name = registryName(given);
    if (!name) throw badRequest(unknownPermissionMessage(given.trim()), 'unknown_permission');
    if (!canGrant(ownerPermissions, name)) throw badRequest(scopeNotHeldMessage(name), 'scope_not_held');
    if (!scopes.includes(name)) scopes.push(name);
  }
  return scopes;
}

/**
 * Creates a key for the caller after checking their password. The secret is answered this once;
 * only its SHA-256 is stored (it is 256 random bits, so a slow hash would add nothing).
 */
export async function createKey(
  ctx: AppContext,
  user: { id: number; organisationId: number; permissions: string[] },
  input: { keyName: string; ipWhitelist: string[]; scopes?: string[]; openadrScopes?: string[]; password: string; address: string },
): Promise<ApiKey & { key: string }> {
  const bad = findBadAllowEntry(input.ipWhitelist);
  if (bad !== null) throw new ApiError(400, 'ip_parse_failure', ipParseFailure(bad));
  const scopes = checkScopes(user.permissions, input.scopes);
  const openadrScopes = [...new Set(input.openadrScopes ?? [])];
  if (openadrScopes.length && !user.permissions.includes(ADMINISTRATOR)) throw new ApiError(403, 'forbidden', API_KEY_MESSAGES.openadrScopesAdminOnly);
  await checkOwnPassword(ctx, user.id, input.address, decodePassword(input.password), rejected);
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await repo.insertKey(ctx.db, {
    organisationId: user.organisationId,
    userId: user.id,
    name: input.keyName,
    hash: hashToken(key),
    ipWhitelist: input.ipWhitelist,
    scopes,
    openadrScopes,
  });
  return { ...present(row), key };
}

/** Revokes one of the caller's keys after checking their password; it stops working at once. */
export async function revokeKey(ctx: AppContext, user: { id: number; organisationId: number }, id: number, password: string, address: string): Promise<void> {
  const row = await repo.findKey(ctx.db, user.organisationId, user.id, id);
  if (!row) throw notFound('API key');
  await checkOwnPassword(ctx, user.id, address, decodePassword(password), rejected);
  await repo.revokeKey(ctx.db, id);
}

/**
 * The owner a request's API key acts for: a valid key of an active user, used from an allowed
 * address. Checked on every request, so revoking a key (or deactivating its owner) stops it at once.
 */
export async function authenticateKey(ctx: AppContext, key: string, address: string): Promise<{ userId: number; keyId: number; scopes: string[] }> {
  const row = await repo.findValidKeyByHash(ctx.db, hashToken(key));
  if (!row?.active) throw invalidKey();
  if (!addressAllowed(repo.parseAllowList(row.ip_whitelist), address)) {
    throw new ApiError(403, 'address_not_allowed', `This API key may not be used from ${address}.`);
  }
  await repo.touchKey(ctx.db, row.id);
  return { userId: row.user_id, keyId: row.id, scopes: repo.parseScopes(row.scopes) };
}

/**
 * The caller an API key stands for: its owner, with the key's scopes that the owner holds as things
 * are now (a permission taken from the owner leaves the key too; one given later does not join it).
 */
export async function apiKeyCaller(ctx: AppContext, key: string, address: string): Promise<AuthUser> {
  const { userId, keyId, scopes } = await authenticateKey(ctx, key, address);
  const owner = await callerOf(ctx, userId, 'done', { kind: 'api-key', keyId, ownerPermissions: [] });
  if (!owner) throw invalidKey();
  const permissions = scopes.filter((s) => canGrant(owner.permissions, s));
  return { ...owner, permissions, via: { kind: 'api-key', keyId, ownerPermissions: owner.permissions } };
}
