import { supportEndpoints as E } from '@vpp/shared/support/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './support.service.ts';

export function supportRoutes(app: App) {
  route(app, E.settings, async () => ({ status: 'OK' as const, data: service.settings(app.ctx) }));
  route(app, E.list, async (req) => ({
    status: 'OK' as const,
    data: await service.listRequests(app.ctx, caller(req), req.query.limit, req.query.offset),
  }));
  route(app, E.create, async (req) => ({ status: 'OK' as const, data: await service.createRequest(app.ctx, caller(req), req.body) }));
}
