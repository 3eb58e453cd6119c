import { MESSAGES } from '@vpp/shared/messages';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTHENTICATOR } from '../features/index.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { ApiError, errorBody } from './errors.ts';
import { guard } from './guard.ts';

describeEachDatabase('guard', (h) => {
  let app: FastifyInstance;

  // A bare server with one permission-gated route, signing in through the real one.
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.decorate('ctx', h().ctx);
    app.setErrorHandler((err, _req, reply) => {
      if (err instanceof ApiError) return reply.code(err.statusCode).send(errorBody(err.code, err.message));
      return reply.send(err);
    });
    await guard(app, AUTHENTICATOR);
    app.get('/nodes', { config: { permission: 'fleet.node.any' } }, async () => ({ status: 'OK', data: { nodes: [] } }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers 401 without a token', async () => {
    const res = await app.inject({ method: 'GET', url: '/nodes' });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.message).toBe('Sign in to continue.');
  });

  it('answers 401 with the session-expired message for a token it did not sign', async () => {
    const res = await app.inject({ method: 'GET', url: '/nodes', headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().data.message).toBe(MESSAGES.sessionExpired);
  });

  it('answers 403 to a signed-in user without the permission', async () => {
    const org = await h().org();
    const u = await h().user(org, { permissions: ['fleet.powerstations.view'] });
    const res = await app.inject({ method: 'GET', url: '/nodes', headers: await h().bearer(u.username) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 'ERROR', error: 'forbidden', data: { message: MESSAGES.notAuthorized } });
  });

  it('lets a user holding a permission of the area through', async () => {
    const org = await h().org();
    const u = await h().user(org, { permissions: ['fleet.node.view'] });
    const res = await app.inject({ method: 'GET', url: '/nodes', headers: await h().bearer(u.username) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', data: { nodes: [] } });
  });

  it('refuses to start a server with a route that declares no permission', async () => {
    const bare = Fastify({ logger: false });
    bare.decorate('ctx', h().ctx);
    // As in buildApp: the API's routes are registered inside a plugin that the guard covers.
    bare.register(async (api) => {
      await guard(api, AUTHENTICATOR);
      api.get('/forgotten', async () => ({ status: 'OK' }));
    });
    await expect(bare.ready()).rejects.toThrow('Route GET /forgotten must declare config.permission');
    await bare.close().catch(() => undefined);
  });
});
