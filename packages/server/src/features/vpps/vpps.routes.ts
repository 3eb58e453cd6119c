import {
  eventsQuery,
  eventsReply,
  latestQuery,
  latestReply,
  mapReply,
  nodeListReply,
  powerstationBody,
  powerstationCreateReply,
  powerstationEventsQuery,
  powerstationListQuery,
  powerstationListReply,
  powerstationNodesQuery,
  powerstationPatchBody,
  powerstationSchema,
  seriesReply,
  statusReply,
  vppSeriesQuery,
} from '@vpp/shared';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import { presentMapNode, presentNode } from '../nodes/nodes.service.ts';
import * as repo from './vpps.repo.ts';
import * as service from './vpps.service.ts';

const idParams = z.object({
  id: z.coerce
    .number({ error: 'The Virtual Power Plant id must be a number.' })
    .int('The Virtual Power Plant id must be a number.')
    .positive('The Virtual Power Plant id must be a number.'),
});

const VIEW = { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view'] };
const EDIT = 'fleet.powerstations.edit';
const DATA = 'fleet.powerstations.data.view';
const tags = ['vpps'];

export async function vppsRoutes(app: App) {
  app.get(
    '/v2/powerstations',
    {
      config: { permission: VIEW },
      schema: {
        tags,
        summary: "The organisation's VPPs with node counts and nameplate totals",
        querystring: powerstationListQuery,
        response: { 200: powerstationListReply },
      },
    },
    async (req) => service.listPowerstations(app.ctx, caller(req), req.query),
  );

  app.get(
    '/v2/powerstations/:id',
    { config: { permission: VIEW }, schema: { tags, summary: 'One VPP', params: idParams, response: { 200: powerstationSchema } } },
    async (req) => service.getPowerstation(app.ctx, caller(req), req.params.id),
  );

  app.post(
    '/api/powerstations',
    {
      config: { permission: EDIT },
      schema: {
        tags,
        summary: 'Create a VPP: STATIC with a node list, or DYNAMIC by postcodes or state',
        body: powerstationBody,
        response: { 200: powerstationCreateReply },
      },
    },
    async (req) => ({ status: 'OK' as const, data: await service.createPowerstation(app.ctx, caller(req), req.body) }),
  );

  app.put(
    '/api/powerstations/:id',
    {
      config: { permission: EDIT },
      schema: { tags, summary: 'Update name and filter (the type cannot change)', params: idParams, body: powerstationBody, response: { 200: statusReply } },
    },
    async (req) => {
      await service.updatePowerstation(app.ctx, caller(req), req.params.id, req.body);
      return { status: 'OK' as const };
    },
  );

  app.patch(
    '/v2/powerstations/:id',
    {
      config: { permission: EDIT },
      schema: {
        tags,
        summary: "Rename; add or remove a manual VPP's nodes by list or filter",
        params: idParams,
        body: powerstationPatchBody,
        response: { 200: statusReply },
      },
    },
    async (req) => {
      await service.patchPowerstation(app.ctx, caller(req), req.params.id, req.body);
      return { status: 'OK' as const };
    },
  );

  app.delete(
    '/api/powerstations/:id',
    { config: { permission: EDIT }, schema: { tags, summary: 'Delete a VPP (not FCAS)', params: idParams, response: { 200: statusReply } } },
    async (req) => {
      await service.deletePowerstation(app.ctx, caller(req), req.params.id);
      return { status: 'OK' as const };
    },
  );

  app.get(
    '/api/powerstations/:id/events',
    {
      config: { permission: VIEW },
      schema: {
        tags,
        summary: "The VPP's events (status=INCOMPLETE: upcoming and in progress)",
        params: idParams,
        querystring: powerstationEventsQuery,
        response: { 200: eventsReply },
      },
    },
    async (req) => ({
      status: 'OK' as const,
      events: await service.listEvents(app.ctx, caller(req), { powerstationId: req.params.id, state: req.query.status }),
    }),
  );

  app.get(
    '/api/events',
    {
      config: { permission: { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view', 'fleet.dispatches.any', 'fleet.curtailments.any'] } },
      schema: {
        tags,
        summary: "Events on the organisation's VPPs (state=INCOMPLETE: upcoming and in progress)",
        querystring: eventsQuery,
        response: { 200: eventsReply },
      },
    },
    async (req) => ({ status: 'OK' as const, events: await service.listEvents(app.ctx, caller(req), { state: req.query.state }) }),
  );

  app.get(
    '/v2/powerstations/:id/nodes',
    {
      config: { permission: VIEW },
      schema: {
        tags,
        summary: "The VPP's nodes; with include_unused_deployments=true every fleet node, flagged included",
        params: idParams,
        querystring: powerstationNodesQuery,
        response: { 200: nodeListReply },
      },
    },
    async (req) => {
      const user = caller(req);
      const ps = await service.requirePowerstation(app.ctx, user, req.params.id);
      const { rows, total } = await repo.listVppNodes(app.ctx.db, ps, { ...req.query, includeUnused: req.query.include_unused_deployments ?? false });
      return { deployments: rows.map((r) => ({ ...presentNode(r, user.row.suborg_type), included: r.included === 1 })), total };
    },
  );

  app.get(
    '/v2/powerstations/:id/map',
    { config: { permission: VIEW }, schema: { tags, summary: "The VPP's nodes as map points", params: idParams, response: { 200: mapReply } } },
    async (req) => {
      const ps = await service.requirePowerstation(app.ctx, caller(req), req.params.id);
      const rows = await repo.vppMapNodes(app.ctx.db, ps);
      return {
        deployments: rows.map(presentMapNode),
      };
    },
  );

  app.get(
    '/api/powerstations/:id/data/latest',
    {
      config: { permission: DATA },
      schema: {
        tags,
        summary: "Each member node's latest reading (the voltage heat map asks meterVoltage, maxAge=1200)",
        params: idParams,
        querystring: latestQuery,
        response: { 200: latestReply },
      },
    },
    async (req) => ({ status: 'OK' as const, ...(await service.latestData(app.ctx, caller(req), req.params.id, req.query)) }),
  );

  app.get(
    '/api/powerstations/:id/data',
    {
      config: { permission: DATA },
      schema: { tags, summary: 'Series of the VPP: sums over its member nodes', params: idParams, querystring: vppSeriesQuery, response: { 200: seriesReply } },
    },
    async (req) => ({ status: 'OK' as const, series: await service.seriesData(app.ctx, caller(req), req.params.id, req.query) }),
  );
}
