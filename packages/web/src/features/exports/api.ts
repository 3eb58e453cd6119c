import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { exportEndpoints as E } from '@vpp/shared/exports/endpoints';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ExportCreateBody, ExportJobDetail } from '@vpp/shared/exports/schemas';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { listRefreshMs } from './export-format.ts';

/** Query keys of the exports area: every job query starts with ['exports', 'jobs'], which a new or cancelled export invalidates. */
export const exportKeys = {
  jobs: ['exports', 'jobs'] as const,
  list: (q: { limit: number; offset: number }) => ['exports', 'jobs', 'list', q] as const,
  detail: (taskId: number) => ['exports', 'jobs', 'detail', taskId] as const,
  powerstations: ['exports', 'powerstations'] as const,
  suggestions: (f: string) => ['exports', 'suggestions', f] as const,
  node: (id: number) => ['exports', 'node', id] as const,
};

/** The newest export alone: what sets a later page's refresh rhythm (its failure is the list's to report). */
const NEWEST = { limit: 1, offset: 0 } as const;

/**
 * The organisation's export jobs, newest first: refreshed every 30 s, or 5 s while the newest export is
 * running (spec 2 §4). On the first page the newest is the list's first task; on a later page it is
 * asked for on its own (limit=1, offset=0), on the same rhythm.
 */
export function useExportJobs(q: { limit: number; offset: number }) {
  const firstPage = q.offset === 0;
  const newest = useQuery({
    queryKey: exportKeys.list(NEWEST),
    queryFn: async () => (await call(E.list, { query: NEWEST }, { quiet: true })).data,
    enabled: !firstPage,
    refetchInterval: (query) => listRefreshMs(query.state.data?.tasks),
  });
  const newestTasks = newest.data?.tasks;
  return useQuery({
    queryKey: exportKeys.list(q),
    queryFn: async () => (await call(E.list, { query: q }, { errorToast: M.historyFailed })).data,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => listRefreshMs(firstPage ? query.state.data?.tasks : newestTasks),
  });
}

/**
 * A finished job's files with their signed links, fetched when `enabled` (a completed job whose item
 * is open); fetched again shortly before the links expire, so that a link on screen always works.
 */
export function useExportJob(taskId: number, enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.detail(taskId),
    queryFn: async () => (await call(E.detail, { params: { id: taskId } }, { quiet: true })).data,
    enabled,
    retry: false,
    refetchInterval: (query) => linksRefreshMs(query.state.data, Date.now()),
  });
}

/** When to ask again for a job's links: 10 s before they expire (at least 5 s from now); never when it has none. */
export function linksRefreshMs(detail: ExportJobDetail | undefined, nowMs: number): number | false {
  const expires = detail?.details.urls_expire_at;
  if (!expires) return false;
  return Math.max(5_000, expires * 1000 - nowMs - 10_000);
}

/**
 * Submits an export (spec 2 §4, §8): 'Data Export Submitted' on success and the list refreshed; a
 * refusal (4xx) is 'Data Export Failure' with the server's reason; anything else 'Data Export Failed'.
 * A 403 has had the request layer's 'Not Authorized'.
 */
export function useCreateExport() {
  return useMutation({
    mutationFn: async (body: ExportCreateBody) => (await call(E.create, { body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', M.submittedTitle, M.submittedBody);
      return queryClient.invalidateQueries({ queryKey: exportKeys.jobs });
    },
    onError: (err: unknown) => {
      if (err instanceof ApiError && err.status === 403) return;
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        toast('error', M.submitFailureTitle, M.submitFailureBody);
        if (err.message) toast('error', err.message);
        return;
      }
      toast('error', M.submitFailedTitle, M.submitFailedBody);
    },
  });
}

/** Cancels a submitted or running export; the list is refreshed. */
export function useCancelExport() {
  return useMutation({
    mutationFn: async (taskId: number) => (await call(E.cancel, { params: { id: taskId } }, { success: { title: M.cancelled } })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKeys.jobs }),
  });
}

/** The VPPs an export can be of (the VPP choices, GET /api/powerstations, open to exporters), loaded when a form needs them. */
export function useExportPowerstations(enabled: boolean) {
  return useQuery({
    queryKey: exportKeys.powerstations,
    queryFn: async () => (await call(vppEndpoints.choices, { query: { limit: 1000, offset: 0 } }, { errorToast: VPP_MESSAGES.loadFailed })).result,
    enabled,
  });
}

/** Node suggestions for the node export (GET /v2/nodes?f&limit), asked once something is typed. */
export function useNodeSuggestions(f: string) {
  return useQuery({
    queryKey: exportKeys.suggestions(f),
    queryFn: async () => (await call(nodeEndpoints.list, { query: { f, limit: 10, offset: 0 } }, { errorToast: M.suggestionsFailed })).deployments,
    enabled: f !== '',
    placeholderData: keepPreviousData,
  });
}

/** The node a deploymentId link names, for the selected list (spec 2 §8 'Failed to load details for node {id}.'). */
export function useExportNode(id: number | undefined) {
  return useQuery({
    queryKey: exportKeys.node(id ?? 0),
    queryFn: async () => (await call(nodeEndpoints.detail, { params: { id: id ?? 0 } }, { errorToast: M.nodeDetailsFailed(id ?? 0) })).data,
    enabled: id !== undefined,
    retry: false,
  });
}
