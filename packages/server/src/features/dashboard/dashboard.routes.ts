import { ALL_FLEET_NODES, endOfPeriod, fleetSeriesQuery, localMidnights, mapQuery, mapReply, seriesReply, totalsReply } from '@vpp/shared';
import type { App } from '../../app.ts';
import { FLEET_METRIC_TO_COLUMN } from '../../fleet/metrics.ts';
import { badRequest } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { deploymentCounts, mapNodes } from '../nodes/nodes.repo.ts';
import { presentMapNode } from '../nodes/nodes.service.ts';

export async function dashboardRoutes(app: App) {
  app.get(
    '/dashboard/map',
    {
      config: { permission: { anyOf: ['fleet.node.any', 'fleet.customerInformation.any', 'fleet.powerstations.any'] } },
      schema: {
        tags: ['dashboard'],
        summary: 'Every node of the fleet as a map point, optionally searched (f) and filtered by display status',
        querystring: mapQuery,
        response: { 200: mapReply },
      },
    },
    async (req) => {
      const rows = await mapNodes(app.ctx.db, caller(req).organisationId, req.query);
      return {
        deployments: rows.map(presentMapNode),
      };
    },
  );

  app.get(
    '/dashboard/totals',
    {
      config: { permission: 'fleet.node.any' },
      schema: { tags: ['dashboard'], summary: 'Commissioned, not commissioned and offline counts', response: { 200: totalsReply } },
    },
    async (req) => ({ status: 'OK' as const, data: { deploymentCounts: await deploymentCounts(app.ctx.db, caller(req).organisationId) } }),
  );

  app.get(
    '/api/data',
    {
      config: { permission: { anyOf: ['fleet.powerstations.data.view', 'fleet.node.any'] } },
      schema: {
        tags: ['dashboard'],
        summary: 'Series of the whole fleet (id __ALL_FLEET_NODES__): sums over its nodes',
        querystring: fleetSeriesQuery,
        response: { 200: seriesReply },
      },
    },
    async (req) => {
      const user = caller(req);
      const q = req.query;
      if (q.id !== ALL_FLEET_NODES) throw badRequest(`id must be ${ALL_FLEET_NODES}; a VPP's series is at /api/powerstations/{id}/data.`);
      const zone = user.row.timezone ?? 'Australia/Sydney';
      const end = q.end ?? endOfPeriod(q.start, 'day', zone);
      if (end <= q.start) throw badRequest('end must be after start.');
      if (q.interval === 30) throw badRequest('interval must be 300, 3600 or 86400 seconds for the fleet.');
      const cols = q.metrics.map((m) => FLEET_METRIC_TO_COLUMN[m]);
      const data = await app.ctx.telemetry.fleetSeries(user.organisationId, cols, q.start, end, q.interval, zone);
      const keys =
        q.interval === 86400
          ? localMidnights(q.start, end, zone)
          : Array.from({ length: Math.ceil((end - q.start) / q.interval) }, (_, i) => q.start - (q.start % q.interval) + i * q.interval);
      const series: Record<string, Record<string, number | null>> = {};
      for (const ts of keys) {
        const p = data.get(ts);
        series[ts] = Object.fromEntries(q.metrics.map((m) => [m, p ? Math.round(Number(p[FLEET_METRIC_TO_COLUMN[m]] ?? 0) * 1000) / 1000 : null]));
      }
      return { status: 'OK' as const, series };
    },
  );
}
