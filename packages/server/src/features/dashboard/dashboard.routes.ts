import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import { dashboardEndpoints as E } from '@vpp/shared/dashboard/endpoints';
import { endOfPeriod } from '@vpp/shared/time';
import { badRequest } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { checkTile, sendTile } from '../../platform/vector-tiles.ts';
import { bucketTimes, buildSeries, FLEET_METRIC_TO_COLUMN } from '../../telemetry/index.ts';
import { deploymentCounts, mapNodes, nodeMapTile, nodeMapView, presentMapNode } from '../nodes/index.ts';
import * as service from './dashboard.service.ts';

export function dashboardRoutes(app: App) {
  route(app, E.map, async (req) => {
    const rows = await mapNodes(app.ctx.db, caller(req).organisationId, req.query);
    return {
      deployments: rows.map(presentMapNode),
    };
  });

  // The fleet map's view and tiles (issue 30): one index per organisation and search, for the report interval.
  const fleetView = (organisationId: number, q: { f?: string; status?: string }) =>
    nodeMapView(`fleet:${organisationId}:${q.status ?? ''}:${q.f ?? ''}`, async () =>
      (await mapNodes(app.ctx.db, organisationId, q as Parameters<typeof mapNodes>[2])).map(presentMapNode),
    );
  route(app, E.mapView, async (req) => {
    const view = await fleetView(caller(req).organisationId, req.query);
    return { status: 'OK' as const, data: { total: view.data.total, bounds: view.data.bounds, version: view.version } };
  });
  route(app, E.mapTile, async (req, reply) => {
    checkTile(req.params);
    const view = await fleetView(caller(req).organisationId, req.query);
    return sendTile(req, reply, await nodeMapTile(view, req.params, req.query.cluster));
  });

  route(app, E.totals, async (req) => ({ status: 'OK' as const, data: { deploymentCounts: await deploymentCounts(app.ctx.db, caller(req).organisationId) } }));

  route(app, E.fleetSeries, async (req) => {
    const user = caller(req);
    const q = req.query;
    if (q.id !== ALL_FLEET_NODES) throw badRequest(`id must be ${ALL_FLEET_NODES}; a VPP's series is at /api/powerstations/{id}/data.`);
    const zone = user.row.timezone ?? 'Australia/Sydney';
    const end = q.end ?? endOfPeriod(q.start, 'day', zone);
    if (end <= q.start) throw badRequest('end must be after start.');
    if (q.interval === 30) throw badRequest('interval must be 300, 3600 or 86400 seconds for the fleet.');
    const cols = q.metrics.map((m) => FLEET_METRIC_TO_COLUMN[m]);
    const data = await app.ctx.telemetry.fleetSeries(user.organisationId, cols, q.start, end, q.interval, zone);
    const keys = bucketTimes(q.start, end, q.interval, zone, { localHours: false });
    return { status: 'OK' as const, series: buildSeries(keys, data, q.metrics, (m) => FLEET_METRIC_TO_COLUMN[m]) };
  });

  route(app, E.ticker, async (req) => ({ status: 'OK' as const, data: await service.tickerEvents(app.ctx, caller(req)) }));

  route(app, E.getLayout, async (req) => ({ status: 'OK' as const, data: await service.dashboardOf(app.ctx, caller(req)) }));
  route(app, E.saveLayout, async (req) => ({ status: 'OK' as const, data: await service.saveDashboard(app.ctx, caller(req), req.body) }));
}
