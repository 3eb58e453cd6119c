import { deviceEndpoints as D } from '@vpp/shared/devices/endpoints';
import { nodeEndpoints as E } from '@vpp/shared/nodes/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './nodes.service.ts';

export function nodesRoutes(app: App) {
  route(app, E.list, async (req) => service.listNodes(app.ctx, caller(req), req.query));
  route(app, E.detail, async (req) => ({ status: 'OK' as const, data: await service.nodeDetail(app.ctx, caller(req), req.params.id) }));
  route(app, E.setSiteLabel, async (req) => ({
    status: 'OK' as const,
    data: await service.setSiteLabel(app.ctx, caller(req), req.params.id, req.body.siteLabel),
  }));
  route(app, E.events, async (req) => service.nodeEvents(app.ctx, caller(req), req.params.id, req.query.limit, req.query.offset));
  route(app, E.series, async (req) => ({ status: 'OK' as const, series: await service.nodeSeries(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.summary, async (req) => ({ status: 'OK' as const, ...(await service.nodeSummary(app.ctx, caller(req), req.params.id, req.query)) }));
  route(app, E.submeter, async (req) => ({ status: 'OK' as const, data: await service.submeterSeries(app.ctx, caller(req), req.params.id, req.query) }));
  // The node's device on the wire (the devices endpoints): the node page's device section.
  route(app, D.device, async (req) => ({ status: 'OK' as const, data: await service.nodeDevice(app.ctx, caller(req), req.params.id) }));
  route(app, D.issueCredential, async (req) => ({ status: 'OK' as const, data: await service.issueDeviceCredential(app.ctx, caller(req), req.params.id) }));
}
