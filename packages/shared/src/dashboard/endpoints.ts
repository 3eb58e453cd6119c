import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { fleetSeriesQuery, mapQuery, mapReply, seriesReply, totalsReply } from '../nodes/schemas.ts';
import { dashboardBody, dashboardReply } from './layout.ts';
import { mapViewReply, nodeTileQuery, tileParams } from './map-tiles.ts';
import { tickerReply } from './ticker.ts';

/** The dashboard's fleet-wide calls (spec 2 §7). */
export const dashboardEndpoints = defineEndpoints('dashboard', {
  map: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dashboard/map',
    summary: 'Every node of the fleet as a map point, optionally searched (f) and filtered by display status',
    permission: { anyOf: ['fleet.node.any', 'fleet.customerInformation.any', 'fleet.powerstations.any'] },
    query: mapQuery,
    reply: mapReply,
  }),
  mapView: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dashboard/map/view',
    summary: "The fleet map's view, optionally searched (f) and filtered by display status: how many nodes, their bounds, and the version its tiles carry",
    permission: { anyOf: ['fleet.node.any', 'fleet.customerInformation.any', 'fleet.powerstations.any'] },
    query: mapQuery,
    reply: mapViewReply,
  }),
  mapTile: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dashboard/map/tiles/:z/:x/:y',
    summary: 'One Mapbox vector tile of the fleet map (layer nodes): nodes and, with cluster=true, clusters counted by display status',
    permission: { anyOf: ['fleet.node.any', 'fleet.customerInformation.any', 'fleet.powerstations.any'] },
    params: tileParams,
    query: mapQuery.extend(nodeTileQuery.shape),
  }),
  totals: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dashboard/totals',
    summary: 'Commissioned, not commissioned and offline counts',
    permission: 'fleet.node.any',
    reply: totalsReply,
  }),
  fleetSeries: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/data',
    summary: 'Series of the whole fleet (id __ALL_FLEET_NODES__): sums over its nodes',
    permission: { anyOf: ['fleet.powerstations.data.view', 'fleet.node.any'] },
    query: fleetSeriesQuery,
    reply: seriesReply,
  }),
  ticker: endpoint({
    method: 'GET',
    access: 'read',
    path: '/ticker',
    summary:
      "The ticker's events, each with its text: the organisation's dispatches upcoming within 24 hours and in progress, the fleet's cloud cover and high temperatures, nodes newly commissioned and awaiting commissioning, new customers",
    // Spec 2 §6 names no permission for the ticker: any signed-in user, who sees the events of the VPPs they may see.
    permission: null,
    reply: tickerReply,
  }),
  getLayout: endpoint({
    method: 'GET',
    access: 'read',
    path: '/account/dashboard',
    summary: "The caller's saved dashboard, or the default one (a Welcome widget, isDefault true) when nothing is saved",
    // Spec 2 §6 gates the widgets, not the dashboard: every signed-in user has their own.
    permission: null,
    reply: dashboardReply,
  }),
  saveLayout: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/dashboard',
    summary: "Replaces the caller's dashboard (at most 50 widgets of known kinds, each fitting the grid); bad input changes nothing",
    permission: null,
    body: dashboardBody,
    reply: dashboardReply,
  }),
});
