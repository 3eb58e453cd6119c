import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { okReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { EXPORT_VIEW } from '../exports/permissions.ts';
import {
  nodeDetailSchema,
  nodeEventsReply,
  nodeListQuery,
  nodeListReply,
  nodeSchema,
  pagingQuery,
  seriesQuery,
  seriesReply,
  siteLabelBody,
  submeterQuery,
  submeterReply,
  summaryQuery,
  summaryReply,
} from './schemas.ts';

export const nodeIdParams = z.object({ id: recordId('node') });
const NODE_PAGES = 'fleet.node.any';
// Node pages open with any node permission; a node's time series need fleet.node.data.view itself (spec 2 §6).
const NODE_DATA = 'fleet.node.data.view';

/** Fleet monitoring and node detail (spec 2). */
export const nodeEndpoints = defineEndpoints('nodes', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/nodes',
    summary: "The fleet's nodes: search, filters, paging and nameplate totals (also the node export's suggestions, spec 2 §7)",
    permission: { anyOf: ['fleet.node.any', 'fleet.powerstations.any', ...EXPORT_VIEW.anyOf] },
    query: nodeListQuery,
    reply: nodeListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/nodes/:id/detail',
    summary: 'A node with its equipment and meters',
    permission: NODE_PAGES,
    params: nodeIdParams,
    reply: okReply(nodeDetailSchema),
  }),
  setSiteLabel: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/nodes/:id/sitelabel',
    summary: "Set the node's site label (at most 100 characters)",
    permission: NODE_PAGES,
    params: nodeIdParams,
    body: siteLabelBody,
    reply: okReply(nodeSchema),
  }),
  events: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/nodes/:id/events',
    summary: "The node's event log, newest first",
    permission: NODE_PAGES,
    params: nodeIdParams,
    query: pagingQuery,
    reply: nodeEventsReply,
  }),
  series: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/nodes/:id/data',
    summary: "The node's monitoring series",
    permission: NODE_DATA,
    heavy: true,
    params: nodeIdParams,
    query: seriesQuery,
    reply: seriesReply,
  }),
  summary: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/nodes/:id/data/summary',
    summary: 'Import, export, generation and consumption of a local day, week or month',
    permission: NODE_DATA,
    params: nodeIdParams,
    query: summaryQuery,
    reply: summaryReply,
  }),
  submeter: endpoint({
    method: 'GET',
    access: 'read',
    path: '/fleet/deployment/:id/customerdata/submeter/historical/p',
    summary: 'Submeter power and reactive power',
    permission: NODE_DATA,
    params: nodeIdParams,
    query: submeterQuery,
    reply: submeterReply,
  }),
});
