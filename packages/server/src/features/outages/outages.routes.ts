import { outageEndpoints as E } from '@vpp/shared/outages/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './outages.service.ts';

const ok = { status: 'OK' as const };

export function outagesRoutes(app: App) {
  route(app, E.list, async (req) => ({ ...ok, data: await service.listOutages(app.ctx, caller(req)) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.outageDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.response, async (req) => ({ ...ok, data: await service.outageResponse(app.ctx, caller(req), req.params.id) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createOutage(app.ctx, caller(req), req.body) }));
  route(app, E.appToken, async (req) => ({ ...ok, data: await service.issueAppToken(app.ctx, caller(req), req.params.id) }));
}
