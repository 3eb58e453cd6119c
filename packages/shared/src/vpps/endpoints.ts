import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { heatMapViewReply, hexagonQuery, hexagonReply, hexTileQuery, mapViewReply, nodeTileQuery, tileParams } from '../dashboard/map-tiles.ts';
import { mapReply, nodeListReply, pagingQuery, seriesReply } from '../nodes/schemas.ts';
import { VPP_CHOICE, VPP_DATA, VPP_EDIT, VPP_VIEW } from './permissions.ts';
import {
  latestQuery,
  latestReply,
  powerstationBody,
  powerstationCreateReply,
  powerstationListQuery,
  powerstationListReply,
  powerstationNodesQuery,
  powerstationPatchBody,
  powerstationSchema,
  vppSeriesQuery,
} from './schemas.ts';

export const vppIdParams = z.object({ id: recordId('powerstation', 'The Virtual Power Plant id') });

const VIEW = VPP_VIEW;
const EDIT = VPP_EDIT;
const DATA = VPP_DATA;

/** Virtual power plants: their nodes, events and data (spec 2). */
export const vppEndpoints = defineEndpoints('vpps', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations',
    summary: "The organisation's VPPs with node counts and nameplate totals",
    permission: VIEW,
    query: powerstationListQuery,
    reply: powerstationListReply,
  }),
  choices: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations',
    summary: "The organisation's VPPs to choose from when creating an event (as the list, for event creators without the VPP screens)",
    permission: VPP_CHOICE,
    query: powerstationListQuery,
    reply: powerstationListReply,
  }),
  get: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations/:id',
    summary: 'One VPP',
    permission: VIEW,
    params: vppIdParams,
    reply: powerstationSchema,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/powerstations',
    summary: 'Create a VPP: STATIC with a node list, or DYNAMIC by postcodes or state',
    permission: EDIT,
    body: powerstationBody,
    reply: powerstationCreateReply,
  }),
  update: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/api/powerstations/:id',
    summary: 'Update name and filter (the type cannot change)',
    permission: EDIT,
    params: vppIdParams,
    body: powerstationBody,
    reply: statusReply,
  }),
  patch: endpoint({
    method: 'PATCH',
    access: 'write',
    path: '/v2/powerstations/:id',
    summary: "Rename; add or remove a manual VPP's nodes by list or filter",
    permission: EDIT,
    params: vppIdParams,
    body: powerstationPatchBody,
    reply: statusReply,
  }),
  remove: endpoint({
    method: 'DELETE',
    access: 'write',
    path: '/api/powerstations/:id',
    summary: 'Delete a VPP (not FCAS)',
    permission: EDIT,
    params: vppIdParams,
    reply: statusReply,
  }),
  nodes: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations/:id/nodes',
    summary: "The VPP's nodes; with include_unused_deployments=true every fleet node, flagged included",
    permission: VIEW,
    params: vppIdParams,
    query: powerstationNodesQuery,
    reply: nodeListReply,
  }),
  map: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations/:id/map',
    summary: "The VPP's nodes as map points",
    permission: VIEW,
    params: vppIdParams,
    reply: mapReply,
  }),
  mapView: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations/:id/map/view',
    summary: "The VPP map's view: how many member nodes, their bounds, and the version its tiles carry",
    permission: VIEW,
    params: vppIdParams,
    reply: mapViewReply,
  }),
  mapTile: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/powerstations/:id/map/tiles/:z/:x/:y',
    summary: "One Mapbox vector tile of the VPP's map (layer nodes): its nodes and clusters counted by display status",
    permission: VIEW,
    params: vppIdParams.extend(tileParams.shape),
    query: nodeTileQuery,
  }),
  heatMapView: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/data/latest/heat-map',
    summary:
      "The voltage heat map's view: the member nodes with a meter voltage at most 1200 s old, how many are outside 216.2 V to 253 V, their bounds, the hexagons at each radius, and the version its tiles carry",
    permission: DATA,
    params: vppIdParams,
    reply: heatMapViewReply,
  }),
  heatMapTile: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/data/latest/heat-map/tiles/:z/:x/:y',
    summary:
      'One Mapbox vector tile of the voltage heat map (layer hexagons): the hexagons of the radius asked, each with the mean voltage (v) and count (n) of its nodes; far out, where a hexagon is under two pixels, neighbouring hexagons merged into points',
    permission: DATA,
    params: vppIdParams.extend(tileParams.shape),
    query: hexTileQuery,
  }),
  heatMapHexagon: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/data/latest/heat-map/hexagon',
    summary: 'The nodes of one hexagon of the voltage heat map and their latest meter voltage, lowest first',
    permission: DATA,
    params: vppIdParams,
    query: hexagonQuery,
    reply: hexagonReply,
  }),
  latest: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/data/latest',
    summary: "Each member node's latest reading (the voltage heat map asks meterVoltage, maxAge=1200)",
    permission: DATA,
    params: vppIdParams,
    query: latestQuery,
    reply: latestReply,
  }),
  series: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/data',
    summary: 'Series of the VPP: sums over its member nodes',
    permission: DATA,
    params: vppIdParams,
    query: vppSeriesQuery,
    reply: seriesReply,
  }),
  unusedNodes: endpoint({
    method: 'GET',
    access: 'read',
    path: '/v2/unused-nodes',
    summary: 'Nodes of the fleet in no VPP',
    permission: { anyOf: ['fleet.powerstations.any', 'fleet.node.any'] },
    query: pagingQuery,
    reply: nodeListReply,
  }),
});
