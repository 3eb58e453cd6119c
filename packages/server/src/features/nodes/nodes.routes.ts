import {
  nodeDetailSchema,
  nodeEventsReply,
  nodeListQuery,
  nodeListReply,
  nodeSchema,
  okReply,
  pagingQuery,
  seriesQuery,
  seriesReply,
  siteLabelBody,
  submeterQuery,
  submeterReply,
  summaryQuery,
  summaryReply,
} from '@vpp/shared';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import { unusedNodes } from '../vpps/vpps.repo.ts';
import * as repo from './nodes.repo.ts';
import * as service from './nodes.service.ts';

const idParams = z.object({
  id: z.coerce.number({ error: 'The node id must be a number.' }).int('The node id must be a number.').positive('The node id must be a number.'),
});
const NODE_PAGES = 'fleet.node.any';
// Node pages open with any node permission; a node's time series need fleet.node.data.view itself (spec 2 §6).
const NODE_DATA = 'fleet.node.data.view';

export async function nodesRoutes(app: App) {
  app.get(
    '/v2/nodes',
    {
      config: { permission: { anyOf: ['fleet.node.any', 'fleet.powerstations.any'] } },
      schema: {
        tags: ['nodes'],
        summary: "The fleet's nodes: search, filters, paging and nameplate totals",
        querystring: nodeListQuery,
        response: { 200: nodeListReply },
      },
    },
    async (req) => {
      const user = caller(req);
      const { rows, total, nameplate } = await repo.listNodes(app.ctx.db, user.organisationId, req.query);
      return { deployments: rows.map((r) => service.presentNode(r, user.row.suborg_type)), total, ...(nameplate ? { nameplate } : {}) };
    },
  );

  app.get(
    '/v2/unused-nodes',
    {
      config: { permission: { anyOf: ['fleet.powerstations.any', 'fleet.node.any'] } },
      schema: { tags: ['nodes'], summary: 'Nodes of the fleet in no VPP', querystring: pagingQuery, response: { 200: nodeListReply } },
    },
    async (req) => {
      const user = caller(req);
      const { rows, total } = await unusedNodes(app.ctx.db, user.organisationId, req.query.limit, req.query.offset);
      return { deployments: rows.map((r) => service.presentNode(r, user.row.suborg_type)), total };
    },
  );

  app.get(
    '/api/nodes/:id/detail',
    {
      config: { permission: NODE_PAGES },
      schema: { tags: ['nodes'], summary: 'A node with its equipment and meters', params: idParams, response: { 200: okReply(nodeDetailSchema) } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.nodeDetail(app.ctx, caller(req), req.params.id) }),
  );

  app.post(
    '/api/nodes/:id/sitelabel',
    {
      config: { permission: NODE_PAGES },
      schema: {
        tags: ['nodes'],
        summary: "Set the node's site label (at most 100 characters)",
        params: idParams,
        body: siteLabelBody,
        response: { 200: okReply(nodeSchema) },
      },
    },
    async (req) => ({ status: 'OK' as const, data: await service.setSiteLabel(app.ctx, caller(req), req.params.id, req.body.siteLabel) }),
  );

  app.get(
    '/api/nodes/:id/events',
    {
      config: { permission: NODE_PAGES },
      schema: {
        tags: ['nodes'],
        summary: "The node's event log, newest first",
        params: idParams,
        querystring: pagingQuery,
        response: { 200: nodeEventsReply },
      },
    },
    async (req) => {
      await service.requireNode(app.ctx, caller(req), req.params.id);
      const { rows, total } = await repo.nodeEvents(app.ctx.db, req.params.id, req.query.limit, req.query.offset);
      return {
        data: rows.map((r) => ({ id: r.id, ts: r.ts, eventType: r.event_type, description: r.description, duration: r.duration })),
        meta: { total, pageCount: Math.ceil(total / req.query.limit) },
      };
    },
  );

  app.get(
    '/api/nodes/:id/data',
    {
      config: { permission: NODE_DATA },
      schema: { tags: ['nodes'], summary: "The node's monitoring series", params: idParams, querystring: seriesQuery, response: { 200: seriesReply } },
    },
    async (req) => ({ status: 'OK' as const, series: await service.nodeSeries(app.ctx, caller(req), req.params.id, req.query) }),
  );

  app.get(
    '/api/nodes/:id/data/summary',
    {
      config: { permission: NODE_DATA },
      schema: {
        tags: ['nodes'],
        summary: 'Import, export, generation and consumption of a local day, week or month',
        params: idParams,
        querystring: summaryQuery,
        response: { 200: summaryReply },
      },
    },
    async (req) => ({ status: 'OK' as const, ...(await service.nodeSummary(app.ctx, caller(req), req.params.id, req.query)) }),
  );

  app.get(
    '/fleet/deployment/:id/customerdata/submeter/historical/p',
    {
      config: { permission: NODE_DATA },
      schema: { tags: ['nodes'], summary: 'Submeter power and reactive power', params: idParams, querystring: submeterQuery, response: { 200: submeterReply } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.submeterSeries(app.ctx, caller(req), req.params.id, req.query) }),
  );
}
