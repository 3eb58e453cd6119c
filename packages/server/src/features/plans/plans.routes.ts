import { planEndpoints as E } from '@vpp/shared/plans/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './plans.service.ts';

const ok = { status: 'OK' as const };

export function plansRoutes(app: App) {
  route(app, E.networks, async () => ({ ...ok, data: service.listNetworks() }));
  route(app, E.list, async (req) => ({ ...ok, data: await service.listPlans(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.planDetail(app.ctx, caller(req), { id: req.params.id }) }));
  route(app, E.byCode, async (req) => ({ ...ok, data: await service.planDetail(app.ctx, caller(req), { code: req.params.planCode }) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createPlan(app.ctx, caller(req), req.body) }));
  route(app, E.update, async (req) => ({ ...ok, data: await service.updatePlan(app.ctx, caller(req), req.params.id, req.body) }));
}
