import { userEndpoints as E } from '@vpp/shared/users/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './users.service.ts';

export function usersRoutes(app: App) {
  route(app, E.list, async (req) => ({ status: 'OK' as const, data: await service.listUsers(app.ctx, caller(req), req.query) }));
  route(app, E.availablePermissions, async (req) => ({ status: 'OK' as const, data: { permissions: service.availablePermissions(caller(req)) } }));
  route(app, E.get, async (req) => ({ status: 'OK' as const, data: await service.getUser(app.ctx, caller(req), req.params.id) }));
  route(app, E.create, async (req) => ({ status: 'OK' as const, data: await service.createOrgUser(app.ctx, caller(req), req.body, req.ip) }));
  route(app, E.update, async (req) => ({ status: 'OK' as const, data: await service.updateOrgUser(app.ctx, caller(req), req.params.id, req.body) }));
}
