import { customerEndpoints as E } from '@vpp/shared/customers/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './customers.service.ts';

const ok = { status: 'OK' as const };

export function customersRoutes(app: App) {
  route(app, E.list, async (req) => ({ ...ok, data: await service.listCustomers(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.customerDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.plan, async (req) => ({ ...ok, data: await service.customerPlan(app.ctx, caller(req), req.params.id) }));
  route(app, E.billEstimate, async (req) => ({ ...ok, data: await service.billEstimate(app.ctx, caller(req), req.params.id) }));
}
