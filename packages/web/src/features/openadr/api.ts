import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { openadrEndpoints as E } from '@vpp/shared/openadr/endpoints';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

export const openadrOverviewQuery = queryOptions({
  queryKey: ['openadr', 'overview'] as const,
  queryFn: async () => (await call(E.overview, {}, { errorToast: 'Failed to load the OpenADR settings.' })).data,
});
export const useOpenadrOverview = () => useQuery(openadrOverviewQuery);

/** Chooses the VPPs whose events go to a VEN. */
export function useSetVenVpps() {
  return useMutation({
    mutationFn: ({ id, vppIds }: { id: number; vppIds: number[] }) =>
      call(E.setVenVpps, { params: { id }, body: { vppIds } }, { errorToast: 'Failed to save the VEN’s VPPs.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: openadrOverviewQuery.queryKey }),
  });
}
