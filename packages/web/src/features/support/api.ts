import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { supportEndpoints as E } from '@vpp/shared/support/endpoints';
import type { SupportRequestBody } from '@vpp/shared/support/schemas';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

const requestPages = ['support', 'requests'] as const;
export const supportKeys = {
  settings: ['support', 'settings'] as const,
  /** Every page of the user's requests. */
  requestPages,
  requests: (limit: number, offset: number) => [...requestPages, limit, offset] as const,
  nodeSearch: (f: string) => ['support', 'node-search', f] as const,
};

export const supportSettingsQueryOptions = queryOptions({
  queryKey: supportKeys.settings,
  queryFn: async () => (await call(E.settings, {}, { errorToast: 'Failed to load the support page.' })).data,
  staleTime: Number.POSITIVE_INFINITY,
});
export const useSupportSettings = () => useQuery(supportSettingsQueryOptions);

export const supportRequestsQueryOptions = (limit: number, offset: number) =>
  queryOptions({
    queryKey: supportKeys.requests(limit, offset),
    queryFn: async () => (await call(E.list, { query: { limit, offset } }, { errorToast: 'Failed to load your support requests.' })).data,
    placeholderData: keepPreviousData,
  });
export const useSupportRequests = (limit: number, offset: number) => useQuery(supportRequestsQueryOptions(limit, offset));

/** Sends a request; refusals (a field, the hourly limit) are shown on the form rather than toasted. */
export function useCreateSupportRequest() {
  return useMutation({
    mutationFn: async (body: SupportRequestBody) => (await call(E.create, { body }, { quiet: true })).data,
    // Every page of the list moves down by one.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.requestPages }),
  });
}

/** The fleet search of fleet monitoring (GET /v2/nodes?f&limit), ten nodes at a time. */
export function useNodeSearch(f: string, enabled: boolean) {
  return useQuery({
    queryKey: supportKeys.nodeSearch(f),
    queryFn: async () =>
      (await call(nodeEndpoints.list, { query: { f: f || undefined, limit: 10, offset: 0 } }, { errorToast: 'Failed to search the fleet.' })).deployments,
    placeholderData: keepPreviousData,
    enabled,
  });
}
