import { rertEndpoints as E } from '@vpp/shared';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as d from '../dispatches/index.ts';
import * as service from './rert.service.ts';

const ok = { status: 'OK' as const };
const RERT = d.RERT_EVENT;

export function rertRoutes(app: App) {
  route(app, E.list, async (req) => ({ ...ok, data: await d.listDispatches(app.ctx, caller(req), req.query, RERT) }));
  route(app, E.messages, async (req) => ({ ...ok, data: await d.previousMessages(app.ctx, caller(req), RERT) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await d.dispatchDetail(app.ctx, caller(req), req.params.id, RERT) }));
  route(app, E.prediction, async (req) => ({ ...ok, data: await d.dispatchPrediction(app.ctx, caller(req), req.params.id, RERT) }));
  route(app, E.remainingCharge, async (req) => ({ ...ok, data: await d.remainingCharge(app.ctx, caller(req), req.params.id, RERT) }));
  route(app, E.response, async (req) => ({ ...ok, data: await d.dispatchResponse(app.ctx, caller(req), req.params.id, RERT) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createRert(app.ctx, caller(req), req.body) }));
  route(app, E.reschedule, async (req) => ({ ...ok, data: await service.rescheduleRert(app.ctx, caller(req), req.params.id, req.body) }));
  route(app, E.cancel, async (req) => {
    await service.cancelRert(app.ctx, caller(req), req.params.id);
    return ok;
  });
}
