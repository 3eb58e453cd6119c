import { curtailmentEndpoints as E } from '@vpp/shared/curtailments/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './curtailments.service.ts';

const ok = { status: 'OK' as const };

export function curtailmentsRoutes(app: App) {
  route(app, E.list, async (req) => ({ ...ok, data: await service.listCurtailments(app.ctx, caller(req), req.query) }));
  route(app, E.detail, async (req) => ({ ...ok, data: await service.curtailmentDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.response, async (req) => ({ ...ok, data: await service.curtailmentResponse(app.ctx, caller(req), req.params.id) }));
  route(app, E.prediction, async (req) => ({ ...ok, data: await service.curtailmentPrediction(app.ctx, caller(req), req.params.id) }));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createCurtailment(app.ctx, caller(req), req.body) }));
  route(app, E.cancel, async (req) => {
    await service.cancelCurtailment(app.ctx, caller(req), req.params.id);
    return ok;
  });
  route(app, E.setpoints, async (req) => ({ ...ok, data: await service.listSetpoints(app.ctx, caller(req), req.query) }));
  route(app, E.vppSetpoints, async (req) => ({ ...ok, data: await service.vppSetpoints(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.removeSetpoint, async (req) => {
    await service.removeSetpoint(app.ctx, caller(req), req.params.id);
    return ok;
  });
  route(app, E.createSetpoint, async (req) => ({ ...ok, data: await service.createSetpoint(app.ctx, caller(req), req.body) }));
  route(app, E.constraint, async (req) => ({ ...ok, data: await service.constraint(app.ctx, caller(req), req.query.powerstation) }));
  route(app, E.newPrediction, async (req) => ({ ...ok, data: await service.newPrediction(app.ctx, caller(req), req.query) }));
  route(app, E.nodes, async (req) => ({ ...ok, data: await service.curtailmentNodes(app.ctx, caller(req), req.params.id, req.query) }));
}
