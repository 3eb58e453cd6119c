import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SortOrder } from '@vpp/shared/api/inputs';
import { dashboardEndpoints } from '@vpp/shared/dashboard/endpoints';
import { deviceEndpoints } from '@vpp/shared/devices/endpoints';
import { nodeEndpoints as E } from '@vpp/shared/nodes/endpoints';
import type { NodeListQuery, NodeMetric, NodeSort, NodeStatus } from '@vpp/shared/nodes/schemas';
import { portalEndpoints } from '@vpp/shared/portal/endpoints';
import { type MapTiles, tileTemplate } from '../../components/map-tiles.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call, refreshUnlessNotFound } from '../../lib/request.ts';

/** Node detail data refreshes every 10 s (spec 2 §4). */
export const NODE_REFRESH_MS = 10_000;
/** The page's words for a node that is not there, or not in the caller's fleet. */
export const NODE_NOT_FOUND = "This node could not be found. It may have been removed, or it is not in your organisation's fleet.";
/** The toast of spec 2 §8 for any failed load of one node's detail or data. */
const NODE_DATA_ERROR = 'Failed to load data for this node.';

export const nodeKeys = {
  all: ['nodes'] as const,
  list: (q: Partial<NodeListQuery>) => ['nodes', 'list', q] as const,
  map: (q: { f?: string; status?: NodeStatus }) => ['nodes', 'map', q] as const,
  detail: (id: number) => ['nodes', id, 'detail'] as const,
  events: (id: number, limit: number, offset: number) => ['nodes', id, 'events', limit, offset] as const,
  series: (id: number, q: object) => ['nodes', id, 'series', q] as const,
  summary: (id: number, start: number, interval: number) => ['nodes', id, 'summary', start, interval] as const,
  submeter: (id: number, sub: number, start: number, end: number) => ['nodes', id, 'submeter', sub, start, end] as const,
  device: (id: number) => ['nodes', id, 'device'] as const,
};

export function useNodeList(q: { f?: string; status?: NodeStatus; sort?: NodeSort; order?: SortOrder; limit: number; offset: number }, enabled = true) {
  return useQuery({
    queryKey: nodeKeys.list(q),
    queryFn: () => call(E.list, { query: q }, { errorToast: 'Failed to load fleet management data.' }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The fleet map's view of a search: its count, bounds and the URL of its vector tiles (the server clusters its nodes). */
export function useFleetMap(q: { f?: string; status?: NodeStatus }, enabled: boolean) {
  return useQuery({
    queryKey: nodeKeys.map(q),
    queryFn: async (): Promise<MapTiles> => {
      const { total, bounds, version } = (await call(dashboardEndpoints.mapView, { query: q }, { errorToast: 'Failed to load fleet map nodes.' })).data;
      return { total, bounds, url: tileTemplate('/dashboard/map/tiles/{z}/{x}/{y}', { ...q, v: version }) };
    },
    enabled,
  });
}

export const nodeDetailQueryOptions = (id: number) =>
  queryOptions({
    queryKey: nodeKeys.detail(id),
    queryFn: async () => (await call(E.detail, { params: { id } }, { errorToast: NODE_DATA_ERROR, notFoundInPage: true })).data,
    refetchInterval: refreshUnlessNotFound(NODE_REFRESH_MS),
  });
export const useNodeDetail = (id: number) => useQuery(nodeDetailQueryOptions(id));

export function useNodeEvents(id: number, limit: number, offset: number) {
  return useQuery({
    queryKey: nodeKeys.events(id, limit, offset),
    queryFn: () => call(E.events, { params: { id }, query: { limit, offset } }, { errorToast: 'Failed to load node event log.' }),
    placeholderData: keepPreviousData,
    refetchInterval: NODE_REFRESH_MS,
  });
}

export function useNodeSeries(id: number, q: { metrics: NodeMetric[]; start: number; end: number; interval: number }) {
  return useQuery({
    queryKey: nodeKeys.series(id, q),
    queryFn: async () =>
      (await call(E.series, { params: { id }, query: { ...q, metrics: q.metrics.join(','), fill: 'null' } }, { errorToast: NODE_DATA_ERROR })).series,
    placeholderData: keepPreviousData,
    refetchInterval: NODE_REFRESH_MS,
    enabled: q.metrics.length > 0,
  });
}

export function useNodeSummary(id: number, start: number, interval: number) {
  return useQuery({
    queryKey: nodeKeys.summary(id, start, interval),
    queryFn: () => call(E.summary, { params: { id }, query: { start, interval } }, { errorToast: NODE_DATA_ERROR }),
    refetchInterval: NODE_REFRESH_MS,
  });
}

export function useSubmeterSeries(id: number, submeter: number, start: number, end: number, deltaT: number, enabled: boolean) {
  return useQuery({
    queryKey: nodeKeys.submeter(id, submeter, start, end),
    queryFn: async () =>
      (
        await call(
          E.submeter,
          { params: { id }, query: { aggregation_base: 'client', delta_t: deltaT, start, end, id: submeter } },
          { errorToast: NODE_DATA_ERROR },
        )
      ).data,
    enabled,
    refetchInterval: NODE_REFRESH_MS,
  });
}

export function useSaveSiteLabel(id: number) {
  return useMutation({
    mutationFn: (siteLabel: string) => call(E.setSiteLabel, { params: { id }, body: { siteLabel } }, { errorToast: 'Failed to save site label.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeKeys.detail(id) }),
  });
}

/** Asks for a single-use portal token; the caller opens the portal with it. */
export function usePortalToken() {
  return useMutation({
    mutationFn: (q: { deployment: number; inverter: string }) => call(portalEndpoints.token, { query: q }, { quiet: true }),
  });
}

/** The node's device on the wire: MQTT username, credential date, broker, last refused message. */
export function nodeDeviceQueryOptions(id: number) {
  return queryOptions({
    queryKey: nodeKeys.device(id),
    queryFn: () => call(deviceEndpoints.device, { params: { id } }, { errorToast: 'Failed to load the device of this node.' }),
    refetchInterval: NODE_REFRESH_MS,
  });
}

export function useNodeDevice(id: number) {
  return useQuery(nodeDeviceQueryOptions(id));
}

/** Issues or rotates the device credential; the reply holds the secret, shown once. */
export function useIssueDeviceCredential(id: number) {
  return useMutation({
    mutationFn: () => call(deviceEndpoints.issueCredential, { params: { id } }, { errorToast: 'Failed to issue a device credential.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeDeviceQueryOptions(id).queryKey }),
  });
}
