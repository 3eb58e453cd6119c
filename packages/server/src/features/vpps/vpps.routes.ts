import { vppEndpoints as E } from '@vpp/shared';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { presentMapNode, presentNode } from '../nodes/index.ts';
import * as repo from './vpps.repo.ts';
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
    const { rows, total } = await repo.listVppNodes(app.ctx.db, ps, { ...req.query, includeUnused: req.query.include_unused_deployments ?? false });
    return { deployments: rows.map((r) => ({ ...presentNode(r, user.row.suborg_type), included: r.included === 1 })), total };
  });
  route(app, E.map, async (req) => {
    const ps = await service.requirePowerstation(app.ctx, caller(req), req.params.id);
    return { deployments: (await repo.vppMapNodes(app.ctx.db, ps)).map(presentMapNode) };
  });
  route(app, E.latest, async (req) => ({ ...ok, ...(await service.latestData(app.ctx, caller(req), req.params.id, req.query)) }));
  route(app, E.series, async (req) => ({ ...ok, series: await service.seriesData(app.ctx, caller(req), req.params.id, req.query) }));
  route(app, E.unusedNodes, async (req) => {
    const user = caller(req);
    const { rows, total } = await repo.unusedNodes(app.ctx.db, user.organisationId, req.query.limit, req.query.offset);
    return { deployments: rows.map((r) => presentNode(r, user.row.suborg_type)), total };
  });
}
