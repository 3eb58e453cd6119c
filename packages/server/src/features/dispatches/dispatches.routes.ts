import { dispatchEndpoints as E } from '@vpp/shared';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './dispatches.service.ts';

const ok = { status: 'OK' as const };

export function dispatchesRoutes(app: App) {
  route(app, E.constraints, async (req) => ({ ...ok, data: await service.constraints(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.predictions, async (req) => ({ ...ok, data: await service.predictions(app.ctx, caller(req), req.params.id, req.query) }));
}
