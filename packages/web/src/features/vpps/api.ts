import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AustralianState } from '@vpp/shared/constants';
import { eventEndpoints } from '@vpp/shared/events/endpoints';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { vppEndpoints as E } from '@vpp/shared/vpps/endpoints';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import type { VppType } from '@vpp/shared/vpps/rules';
import type { PowerstationBody, PowerstationPatchBody } from '@vpp/shared/vpps/schemas';
import { type MapTiles, tileTemplate } from '../../components/map-tiles.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

/** Query keys of the VPP area: every mutation invalidates `all`, which the unused-node count sits under too. */
export const vppKeys = {
  all: ['vpps'] as const,
  list: (q: object) => ['vpps', 'list', q] as const,
  detail: (id: number) => ['vpps', id, 'detail'] as const,
  events: (id: number) => ['vpps', id, 'events'] as const,
  nodes: (id: number, q: object) => ['vpps', id, 'nodes', q] as const,
  map: (id: number) => ['vpps', id, 'map'] as const,
  unused: (limit: number, offset: number) => ['vpps', 'unused', limit, offset] as const,
  preview: (q: object) => ['vpps', 'preview', q] as const,
};

const invalidate = () => queryClient.invalidateQueries({ queryKey: vppKeys.all });

export function usePowerstations(q: { limit: number; offset: number; type: VppType[] }) {
  return useQuery({
    queryKey: vppKeys.list(q),
    queryFn: () => call(E.list, { query: { ...q, type: q.type.join(',') } }, { errorToast: VPP_MESSAGES.loadFailed }),
    placeholderData: keepPreviousData,
  });
}

export const powerstationQueryOptions = (id: number) =>
  queryOptions({
    queryKey: vppKeys.detail(id),
    queryFn: () => call(E.get, { params: { id } }, { errorToast: VPP_MESSAGES.loadFailed, notFoundInPage: true }),
  });
/** The page's words for a VPP that is not there, or another organisation's. */
export const VPP_NOT_FOUND = 'This Virtual Power Plant could not be found. It may have been deleted, or it belongs to another organisation.';
export const usePowerstation = (id: number) => useQuery(powerstationQueryOptions(id));

/** Upcoming and in-progress events of a VPP. */
export function usePowerstationEvents(id: number) {
  return useQuery({
    queryKey: vppKeys.events(id),
    queryFn: async () =>
      (await call(eventEndpoints.ofVpp, { params: { id }, query: { status: 'INCOMPLETE' } }, { errorToast: VPP_MESSAGES.eventsFailed })).events,
  });
}

export interface VppNodesQuery {
  f?: string;
  address_filter?: string;
  include_unused_deployments?: boolean;
  limit: number;
  offset: number;
}

/** A VPP's nodes; with include_unused_deployments every fleet node, flagged included. */
export function usePowerstationNodes(id: number, q: VppNodesQuery, enabled = true) {
  return useQuery({
    queryKey: vppKeys.nodes(id, q),
    queryFn: () =>
      call(
        E.nodes,
        {
          params: { id },
          query: { ...q, include_unused_deployments: q.include_unused_deployments === undefined ? undefined : q.include_unused_deployments ? 'true' : 'false' },
        },
        { errorToast: VPP_MESSAGES.nodesFailed },
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The VPP map's view: its count, bounds and the URL of its vector tiles (the server clusters its nodes). */
export function usePowerstationMap(id: number, enabled: boolean) {
  return useQuery({
    queryKey: vppKeys.map(id),
    queryFn: async (): Promise<MapTiles> => {
      const { total, bounds, version } = (await call(E.mapView, { params: { id } }, { errorToast: VPP_MESSAGES.mapFailed })).data;
      return { total, bounds, url: tileTemplate(`/v2/powerstations/${id}/map/tiles/{z}/{x}/{y}`, { v: version }) };
    },
    enabled,
  });
}

/** The fleet's nodes in no VPP. */
export function useUnusedNodes(limit: number, offset: number, enabled = true) {
  return useQuery({
    queryKey: vppKeys.unused(limit, offset),
    queryFn: () => call(E.unusedNodes, { query: { limit, offset } }, { errorToast: VPP_MESSAGES.unusedFailed }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * The fleet's nodes an automatic VPP's filter would hold, with their nameplate totals. An empty
 * postcode list is sent as NULL (spec 2 §5); `enabled` is false until a state is chosen.
 */
export function useFilterPreview(q: { postcodes?: string[]; state?: AustralianState | null; f?: string; limit: number; offset: number }, enabled: boolean) {
  const query = {
    nameplate: 'true' as const,
    f: q.f || undefined,
    limit: q.limit,
    offset: q.offset,
    ...(q.postcodes ? { postcodes: q.postcodes.length ? q.postcodes.join(',') : 'NULL' } : { state: q.state ?? undefined }),
  };
  return useQuery({
    queryKey: vppKeys.preview(query),
    queryFn: () => call(nodeEndpoints.list, { query }, { errorToast: VPP_MESSAGES.nameplateFailed }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useCreatePowerstation() {
  return useMutation({
    mutationFn: (body: PowerstationBody) =>
      call(E.create, { body }, { errorToast: VPP_MESSAGES.createFailed, success: { title: VPP_MESSAGES.created(body.name.trim()) } }),
    onSuccess: invalidate,
  });
}

export function useUpdatePowerstation(id: number) {
  return useMutation({
    mutationFn: (body: PowerstationBody) =>
      call(E.update, { params: { id }, body }, { errorToast: VPP_MESSAGES.updateFailed, success: { title: VPP_MESSAGES.updated(body.name.trim()) } }),
    onSuccess: invalidate,
  });
}

/**
 * Patches a VPP: a rename toasts with the name, a node toggle with the plain update text; a bulk
 * change by filter toasts nothing on failure, its page shows the server's message in a box.
 */
export function usePatchPowerstation(id: number) {
  return useMutation({
    mutationFn: ({ body, bulk }: { body: PowerstationPatchBody; bulk?: boolean }) =>
      call(
        E.patch,
        { params: { id }, body },
        {
          ...(bulk ? { quiet: true } : { errorToast: VPP_MESSAGES.updateFailed }),
          success: { title: body.name !== undefined && !body.nodes ? VPP_MESSAGES.updated(body.name.trim()) : VPP_MESSAGES.nodesUpdated },
        },
      ),
    onSuccess: invalidate,
  });
}

export function useDeletePowerstation() {
  return useMutation({
    mutationFn: (vpp: { id: number; name: string }) =>
      call(E.remove, { params: { id: vpp.id } }, { errorToast: VPP_MESSAGES.deleteFailed(vpp.name), success: { title: VPP_MESSAGES.deleted(vpp.name) } }),
    // The deleted VPP's own queries are not refetched (they would answer 404 while its page closes).
    onSuccess: (_data, vpp) => queryClient.invalidateQueries({ queryKey: vppKeys.all, predicate: (q) => q.queryKey[1] !== vpp.id }),
  });
}
