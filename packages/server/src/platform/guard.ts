import { API_KEY_MESSAGES } from '@vpp/shared/account/api-keys';
import type { EndpointAccess } from '@vpp/shared/api/endpoint';
import type { SuborgType } from '@vpp/shared/constants';
import { type PermissionRequirement, satisfies, writeAllowed } from '@vpp/shared/permissions/registry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import { DOWNLOAD_LINK_MESSAGE, redeemDownloadToken } from './downloads.ts';
import { ApiError, forbidden, unauthorized } from './errors.ts';

/** A user's row with their organisation's name and type: what the guard loads for every call. */
export interface UserWithOrg extends UserRow {
  organisation_name: string;
  suborg_type: SuborgType;
}

/** The signed-in caller, loaded fresh for each request so revoked permissions stop at once. */
export interface AuthUser {
  id: number;
  organisationId: number;
  permissions: string[];
  mfa: 'pending' | 'done';
  row: UserWithOrg;
  /**
   * How the caller proved who they are: a session's access token (its id and expiry), or one of their API keys. For a
   * key, `permissions` are the key's scopes that its owner still holds, and `ownerPermissions` the
   * owner's own (to tell a missing scope from a missing permission).
   */
  via: // `session` is the sign-in the token belongs to (null while the second factor is awaited).
    | { kind: 'session'; tokenId: string; expiresAt: number; session?: string | null }
    | { kind: 'api-key'; keyId: number; ownerPermissions: string[] }
    // A single-use download token (?token=) on a route that takes one: one file, once.
    | { kind: 'download' };
}

/**
 * How the guard learns who calls: the auth area resolves session tokens and the api-keys area API
 * keys (composed in features/index.ts), so that the platform imports no area.
 */
export interface Authenticator {
  isApiKey(credential: string): boolean;
  /** The caller of an API key from this address; throws 401 when the key is not valid. */
  apiKey(ctx: AppContext, key: string, address: string): Promise<AuthUser>;
  /** The caller of a session's bearer access token; throws 401 when the session is over. */
  session(ctx: AppContext, token: string, auth: 'user' | 'mfa' | 'session'): Promise<AuthUser>;
  /** The caller a redeemed download token stands for (their permissions as they are now); null for an inactive user. */
  downloadUser(ctx: AppContext, userId: number): Promise<AuthUser | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'public': no caller needed; 'mfa': a caller who has not yet given the second factor may call;
     * 'session': a signed-in session only, not an API key (managing keys, passwords).
     */
    auth?: 'public' | 'mfa' | 'session';
    /** The permission the route needs; null for any signed-in caller. Every guarded route declares it. */
    permission?: PermissionRequirement | null;
    /** Whether the route changes anything: an API key needs a write scope for it (routes registered from an endpoint say). */
    access?: EndpointAccess;
    /** The route is a file opened as a link: it takes a single-use download token (`?token=`) in place of the bearer. */
    download?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/** The signed-in caller of a guarded route. */
export function caller(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/**
 * Authenticates every route of the API and checks its declared permission before the body is even
 * parsed. A route that forgets to declare its permission stops the server from starting.
 */
export async function guard(app: FastifyInstance, authenticator: Authenticator) {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: string; permission?: unknown };
    if (config.auth !== 'public' && config.permission === undefined) {
      throw new Error(`Route ${route.method} ${route.url} must declare config.permission (null for any signed-in user)`);
    }
  });

  app.addHook('onRequest', async (req) => {
    const { auth, permission, download, access } = req.routeOptions.config;
    if (auth === 'public') return;
    const header = req.headers.authorization ?? '';
    const bearer = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const keyHeader = req.headers['x-api-key'];
    const apiKey = typeof keyHeader === 'string' && keyHeader.trim() ? keyHeader.trim() : authenticator.isApiKey(bearer) ? bearer : '';

    // An API key (X-API-Key, or a bearer credential with the key prefix) acts as its owner.
    if (apiKey) {
      // Refused before the key is even looked up: account security is never delegated to a key.
      if (auth === 'session' || auth === 'mfa') throw new ApiError(403, 'session_required', API_KEY_MESSAGES.sessionRequired);
      req.user = await authenticator.apiKey(app.ctx, apiKey, req.ip);
    } else if (!bearer && download && typeof (req.query as Record<string, unknown>)?.token === 'string') {
      // A link the browser opened: the token is spent here, for this exact path and query, whatever follows.
      const grant = await redeemDownloadToken(app.ctx.db, (req.query as { token: string }).token, req.url);
      const user = await authenticator.downloadUser(app.ctx, grant.userId);
      if (!user || user.organisationId !== grant.organisationId) throw new ApiError(401, 'download_link_invalid', DOWNLOAD_LINK_MESSAGE);
      req.user = user;
    } else {
      if (!bearer) throw unauthorized('unauthorized', 'Sign in to continue.');
      req.user = await authenticator.session(app.ctx, bearer, auth ?? 'user');
    }
    const { via, permissions } = req.user;
    // A key's view scopes open the areas they view (their `X.any` gates) and nothing that changes them.
    const write = access !== 'read';
    const keyRefusal = () =>
      new ApiError(403, 'scope_missing', write && !writeAllowed(permissions, null) ? API_KEY_MESSAGES.readOnlyKey : API_KEY_MESSAGES.scopeMissing);
    if (permission && !satisfies(permissions, permission)) {
      if (via.kind === 'api-key' && satisfies(via.ownerPermissions, permission)) throw keyRefusal();
      throw forbidden();
    }
    if (via.kind === 'api-key' && write && !writeAllowed(permissions, permission ?? null)) throw keyRefusal();
  });
}
