import { dispatchEndpoints as E } from '@vpp/shared';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as forecast from './dispatches.forecast.service.ts';
import * as service from './dispatches.service.ts';

const ok = { status: 'OK' as const };

export function dispatchesRoutes(app: App) {
  route(app, E.constraints, async (req) => ({ ...ok, data: await forecast.constraints(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.predictions, async (req) => ({ ...ok, data: await forecast.predictions(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createDispatch(app.ctx, caller(req), req.body) }));
  route(app, E.list, async (req) => ({ ...ok, data: await service.listDispatches(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.dispatchDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.prediction, async (req) => ({ ...ok, data: await service.dispatchPrediction(app.ctx, caller(req), req.params.id) }));
  route(app, E.remainingCharge, async (req) => ({ ...ok, data: await service.remainingCharge(app.ctx, caller(req), req.params.id) }));
  route(app, E.cost, async (req) => ({ ...ok, data: await service.dispatchCost(app.ctx, caller(req), req.params.id) }));
  route(app, E.response, async (req) => ({ ...ok, data: await service.dispatchResponse(app.ctx, caller(req), req.params.id) }));
  route(app, E.messages, async (req) => ({ ...ok, data: await service.previousMessages(app.ctx, caller(req)) }));
  route(app, E.cancel, async (req) => {
    await service.cancelDispatch(app.ctx, caller(req), req.params.id);
    return ok;
  });
}
