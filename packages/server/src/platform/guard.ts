import { MESSAGES, type PermissionRequirement, satisfies } from '@vpp/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateKey, isApiKey } from '../features/api-keys/api-keys.service.ts';
import { sessionEnded } from '../features/auth/auth.repo.ts';
import { findUserById, getPermissions, type UserWithOrg } from '../features/users/users.repo.ts';
import { ApiError, forbidden, unauthorized } from './errors.ts';
import { verifyAccessToken } from './tokens.ts';

/** The signed-in caller, loaded fresh for each request so revoked permissions stop at once. */
export interface AuthUser {
  id: number;
  organisationId: number;
  permissions: string[];
  mfa: 'pending' | 'done';
  row: UserWithOrg;
  /** How the caller proved who they are: a session's access token, or one of their API keys. */
  via: { kind: 'session' } | { kind: 'api-key'; keyId: number };
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
export async function guard(app: FastifyInstance) {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: string; permission?: unknown };
    if (config.auth !== 'public' && config.permission === undefined) {
      throw new Error(`Route ${route.method} ${route.url} must declare config.permission (null for any signed-in user)`);
    }
  });

  app.addHook('onRequest', async (req) => {
    const { auth, permission } = req.routeOptions.config;
    if (auth === 'public') return;
    const header = req.headers.authorization ?? '';
    const bearer = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const keyHeader = req.headers['x-api-key'];
    const apiKey = typeof keyHeader === 'string' && keyHeader.trim() ? keyHeader.trim() : isApiKey(bearer) ? bearer : '';

    // An API key (X-API-Key, or a bearer credential with the key prefix) acts as its owner.
    if (apiKey) {
      if (auth === 'session' || auth === 'mfa') throw new ApiError(403, 'session_required', 'API keys cannot make this call: sign in instead.');
      const { userId, keyId } = await authenticateKey(app.ctx, apiKey, req.ip);
      const row = await findUserById(app.ctx.db, userId);
      if (!row?.active) throw unauthorized('invalid_api_key', 'This API key is not valid, or has been revoked.');
      const permissions = await getPermissions(app.ctx.db, row.id);
      req.user = { id: row.id, organisationId: row.organisation_id, permissions, mfa: 'done', row, via: { kind: 'api-key', keyId } };
      if (permission && !satisfies(permissions, permission)) throw forbidden();
      return;
    }

    const claims = bearer ? await verifyAccessToken(app.ctx.keys.access, bearer) : null;
    if (!claims) throw unauthorized('unauthorized', bearer ? MESSAGES.sessionExpired : 'Sign in to continue.');
    // An access token dies with its sign-in, not only when it expires.
    if (claims.session && (await sessionEnded(app.ctx.db, claims.session))) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
    const row = await findUserById(app.ctx.db, claims.userId);
    if (!row?.active) throw unauthorized('unauthorized', MESSAGES.sessionExpired);
    if (claims.mfa === 'pending' && auth !== 'mfa') throw unauthorized('mfa_failure', 'Two-factor authentication is required.');
    const permissions = await getPermissions(app.ctx.db, row.id);
    req.user = { id: row.id, organisationId: row.organisation_id, permissions, mfa: claims.mfa, row, via: { kind: 'session' } };
    if (permission && !satisfies(permissions, permission)) throw forbidden();
  });
}
