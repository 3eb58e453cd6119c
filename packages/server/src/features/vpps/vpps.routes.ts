import { HEAT_MAP_MAX_AGE_S } from '@vpp/shared/dashboard/layout';
import { vppEndpoints as E } from '@vpp/shared/vpps/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { checkTile, sendTile } from '../../platform/vector-tiles.ts';
import { nodeMapTile, nodeMapView, presentMapNode, presentNode } from '../nodes/index.ts';
import { heatMapTile, heatMapView, hexagonNodes } from './heat-map-tiles.ts';
import * as service from './vpps.service.ts';

const ok = { status: 'OK' as const };

export function vppsRoutes(app: App) {
  route(app, E.list, async (req) => service.listPowerstations(app.ctx, caller(req), req.query));
  route(app, E.choices, async (req) => service.listPowerstations(app.ctx, caller(req), req.query));
  route(app, E.get, async (req) => service.getPowerstation(app.ctx, caller(req), req.params.id));
  route(app, E.create, async (req) => ({ ...ok, data: await service.createPowerstation(app.ctx, caller(req), req.body) }));
  route(app, E.update, async (req) => {
    await service.updatePowerstation(app.ctx, caller(req), req.params.id, req.body);
    return ok;
  });
  route(app, E.patch, async (req) => {
    await service.patchPowerstation(app.ctx, caller(req), req.params.id, req.body);
    return ok;
  });
  route(app, E.remove, async (req) => {
    await service.deletePowerstation(app.ctx, caller(req), req.params.id);
    return ok;
  });
  route(app, E.nodes, async (req) => {
    const user = caller(req);
    const ps = await service.requirePowerstation(app.ctx, user, req.params.id);
    const { rows, total } = await service.vppNodes(app.ctx, ps, { ...req.query, includeUnused: req.query.include_unused_deployments ?? false });
    return { deployments: rows.map((r) => ({ ...presentNode(r, user.row.suborg_type), included: r.included === 1 })), total };
  });
  route(app, E.map, async (req) => {
    const ps = await service.requirePowerstation(app.ctx, caller(req), req.params.id);
    return { deployments: (await service.vppMapNodes(app.ctx, ps)).map(presentMapNode) };
  });
  // The VPP's map and voltage heat map as views and vector tiles (issue 30): the VPP is looked up in
  // the caller's organisation on every call, then its view is taken from the index of the report interval.
  const vppMapView = async (req: { params: { id: number } } & Parameters<typeof caller>[0]) => {
    const ps = await service.requirePowerstation(app.ctx, caller(req), req.params.id);
    return nodeMapView(`vpp:${ps.organisation_id}:${ps.id}:${ps.updated_at}`, async () => (await service.vppMapNodes(app.ctx, ps)).map(presentMapNode));
  };
  route(app, E.mapView, async (req) => {
    const view = await vppMapView(req);
    return { ...ok, data: { total: view.data.total, bounds: view.data.bounds, version: view.version } };
  });
  route(app, E.mapTile, async (req, reply) => {
    checkTile(req.params);
    return sendTile(req, reply, await nodeMapTile(await vppMapView(req), req.params, req.query.cluster));
  });
  const voltageView = async (req: { params: { id: number } } & Parameters<typeof caller>[0]) => {
    const user = caller(req);
    const ps = await service.requirePowerstation(app.ctx, user, req.params.id);
    return heatMapView(`heat:${ps.organisation_id}:${ps.id}:${ps.updated_at}`, async () => {
      const latest = await service.latestData(app.ctx, user, ps.id, { metrics: ['meterVoltage'], maxAge: HEAT_MAP_MAX_AGE_S });
      return latest.meterVoltage ?? [];
    });
  };
  route(app, E.heatMapView, async (req) => {
    const view = await voltageView(req);
    const d = view.data;
    return { ...ok, data: { total: d.total, outside: d.outside, bounds: d.bounds, version: view.version, hexagons: d.hexagons } };
  });
  route(app, E.heatMapTile, async (req, reply) => {
    checkTile(req.params);
    return sendTile(req, reply, await heatMapTile(await voltageView(req), req.params, req.query.radius));
  });
  route(app, E.heatMapHexagon, async (req) => {
    const view = await voltageView(req);
    return { ...ok, data: await hexagonNodes(view, req.query.radius, req.query.q, req.query.r) };
  });
  route(app, E.latest, async (req) => ({
    ...ok,
    ...(req.query.format === 'total'
      ? await service.latestTotals(app.ctx, caller(req), req.params.id, req.query)
      : await service.latestData(app.ctx, caller(req), req.params.id, req.query)),
  }));
  route(app, E.series, async (req) => ({ ...ok, series: await service.seriesData(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.unusedNodes, async (req) => {
    const user = caller(req);
    const { rows, total } = await service.unusedNodes(app.ctx, user, req.query.limit, req.query.offset);
    return { deployments: rows.map((r) => presentNode(r, user.row.suborg_type)), total };
  });
}
