import { apiKeyEndpoints as E } from '@vpp/shared/account/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './api-keys.service.ts';

export function apiKeyRoutes(app: App) {
  route(app, E.list, async (req) => ({ status: 'OK' as const, data: { keys: await service.listKeys(app.ctx, caller(req)) } }));
  route(app, E.create, async (req) => ({
    status: 'OK' as const,
    data: await service.createKey(app.ctx, caller(req), { ...req.body, password: req.query.password, address: req.ip }),
  }));
  route(app, E.revoke, async (req) => {
    await service.revokeKey(app.ctx, caller(req), req.params.id, req.query.password, req.ip);
    return { status: 'OK' as const };
  });
}
