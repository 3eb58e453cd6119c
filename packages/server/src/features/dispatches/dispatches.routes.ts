import type { Endpoint } from '@vpp/shared/api/endpoint';
import { dispatchEndpoints as E } from '@vpp/shared/dispatches/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as forecast from './dispatches.forecast.service.ts';
import * as outcome from './dispatches.outcome.service.ts';
import { DISPATCH_EVENT } from './dispatches.repo.ts';
import * as service from './dispatches.service.ts';

const ok = { status: 'OK' as const };

type ReadKey = 'list' | 'messages' | 'detail' | 'prediction' | 'remainingCharge' | 'response';
/** The read endpoints a kind of dispatch has, with the dispatches' schemas under its own paths and permissions (RERT's). */
export type DispatchReadEndpoints = { [K in ReadKey]: Omit<(typeof E)[K], 'path' | 'summary' | 'permission' | 'area'> & Endpoint & { area?: string } };

/** The reads every kind of dispatch answers alike (a dispatch, a RERT dispatch): each for events of `type` only. */
export function dispatchReadRoutes(app: App, R: DispatchReadEndpoints, type: string) {
  route(app, R.list, async (req) => ({ ...ok, data: await service.listDispatches(app.ctx, caller(req), req.query, type) }));
  route(app, R.messages, async (req) => ({ ...ok, data: await service.previousMessages(app.ctx, caller(req), type) }));
  route(app, R.detail, async (req) => ({ ...ok, data: await service.dispatchDetail(app.ctx, caller(req), req.params.id, type) }));
  route(app, R.prediction, async (req) => ({ ...ok, data: await service.dispatchPrediction(app.ctx, caller(req), req.params.id, type) }));
  route(app, R.remainingCharge, async (req) => ({ ...ok, data: await service.remainingCharge(app.ctx, caller(req), req.params.id, type) }));
  route(app, R.response, async (req) => ({ ...ok, data: await outcome.dispatchResponse(app.ctx, caller(req), req.params.id, type) }));
}

export function dispatchesRoutes(app: App) {
  route(app, E.constraints, async (req) => ({ ...ok, data: await forecast.constraints(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.predictions, async (req) => ({ ...ok, data: await forecast.predictions(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createDispatch(app.ctx, caller(req), req.body) }));
  dispatchReadRoutes(app, E, DISPATCH_EVENT);
  route(app, E.cost, async (req) => ({ ...ok, data: await outcome.dispatchCost(app.ctx, caller(req), req.params.id) }));
  route(app, E.cancel, async (req) => {
    await service.cancelDispatch(app.ctx, caller(req), req.params.id);
    return ok;
  });
}
