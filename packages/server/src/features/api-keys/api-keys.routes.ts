import { apiKeyParams, apiKeyPasswordQuery, apiKeysReply, createApiKeyBody, newApiKeyReply, statusReply } from '@vpp/shared';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as service from './api-keys.service.ts';

// Keys are managed from a signed-in session only: a key cannot mint or revoke keys.
export async function apiKeyRoutes(app: App) {
  app.get(
    '/account/api-keys',
    { config: { auth: 'session', permission: null }, schema: { tags: ['api keys'], summary: 'The caller’s API keys', response: { 200: apiKeysReply } } },
    async (req) => ({ status: 'OK' as const, data: { keys: await service.listKeys(app.ctx, caller(req)) } }),
  );

  app.post(
    '/account/api-keys',
    {
      config: { auth: 'session', permission: null },
      schema: {
        tags: ['api keys'],
        summary: 'Create an API key (the account password, base64-encoded, in `password`); the secret is answered once',
        querystring: apiKeyPasswordQuery,
        body: createApiKeyBody,
        response: { 200: newApiKeyReply },
      },
    },
    async (req) => ({
      status: 'OK' as const,
      data: await service.createKey(app.ctx, caller(req), { ...req.body, password: req.query.password }),
    }),
  );

  app.delete(
    '/account/api-keys/:id',
    {
      config: { auth: 'session', permission: null },
      schema: {
        tags: ['api keys'],
        summary: 'Revoke an API key (the account password, base64-encoded, in `password`)',
        params: apiKeyParams,
        querystring: apiKeyPasswordQuery,
        response: { 200: statusReply },
      },
    },
    async (req) => {
      await service.revokeKey(app.ctx, caller(req), req.params.id, req.query.password);
      return { status: 'OK' as const };
    },
  );
}
