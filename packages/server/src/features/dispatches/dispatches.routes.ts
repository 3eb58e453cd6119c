import { dispatchEndpoints as E } from '@vpp/shared';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as commands from './dispatches.commands.ts';
import * as service from './dispatches.service.ts';

const ok = { status: 'OK' as const };

export function dispatchesRoutes(app: App) {
  route(app, E.constraints, async (req) => ({ ...ok, data: await service.constraints(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.predictions, async (req) => ({ ...ok, data: await service.predictions(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.create, async (req) => ({ ...ok, data: await commands.createDispatch(app.ctx, caller(req), req.body) }));
  route(app, E.list, async (req) => ({ ...ok, data: await commands.listDispatches(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await commands.dispatchDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.prediction, async (req) => ({ ...ok, data: await commands.dispatchPrediction(app.ctx, caller(req), req.params.id) }));
  route(app, E.remainingCharge, async (req) => ({ ...ok, data: await commands.remainingCharge(app.ctx, caller(req), req.params.id) }));
  route(app, E.cost, async (req) => ({ ...ok, data: await commands.dispatchCost(app.ctx, caller(req), req.params.id) }));
  route(app, E.response, async (req) => ({ ...ok, data: await commands.dispatchResponse(app.ctx, caller(req), req.params.id) }));
  route(app, E.messages, async (req) => ({ ...ok, data: await commands.previousMessages(app.ctx, caller(req)) }));
  route(app, E.cancel, async (req) => {
    await commands.cancelDispatch(app.ctx, caller(req), req.params.id);
    return ok;
  });
}
