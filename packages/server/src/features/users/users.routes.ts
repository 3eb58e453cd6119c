import { availablePermissionsReply, userBody, userParams, userReply, usersQuery, usersReply } from '@vpp/shared';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as service from './users.service.ts';

const permission = 'fleet.myReposit.users';

export async function usersRoutes(app: App) {
  app.get(
    '/api/users',
    {
      config: { permission },
      schema: { tags: ['users'], summary: 'The users of the organisation, a page at a time', querystring: usersQuery, response: { 200: usersReply } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.listUsers(app.ctx, caller(req), req.query) }),
  );

  app.get(
    '/api/users/available-permissions',
    {
      config: { permission },
      schema: { tags: ['users'], summary: 'The permissions the caller may grant (those they hold)', response: { 200: availablePermissionsReply } },
    },
    async (req) => ({ status: 'OK' as const, data: { permissions: service.availablePermissions(caller(req)) } }),
  );

  app.get(
    '/api/users/:id',
    { config: { permission }, schema: { tags: ['users'], summary: 'One user of the organisation', params: userParams, response: { 200: userReply } } },
    async (req) => ({ status: 'OK' as const, data: await service.getUser(app.ctx, caller(req), req.params.id) }),
  );

  app.post(
    '/api/users',
    {
      config: { permission },
      schema: { tags: ['users'], summary: 'Create a user; they are e-mailed a link to choose a password', body: userBody, response: { 200: userReply } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.createOrgUser(app.ctx, caller(req), req.body, req.ip) }),
  );

  app.put(
    '/api/users/:id',
    {
      config: { permission },
      schema: { tags: ['users'], summary: 'Update a user of the organisation', params: userParams, body: userBody, response: { 200: userReply } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.updateOrgUser(app.ctx, caller(req), req.params.id, req.body) }),
  );
}
