import { useQuery } from '@tanstack/react-query';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { call } from '../../lib/request.ts';

/**
 * The VPPs an event can go to (FCAS VPPs answer the market's contingency events, not manual
 * dispatches, outages or curtailments). Under the dispatches' key, so a new dispatch refreshes it.
 */
export function useDispatchPowerstations(enabled: boolean) {
  return useQuery({
    queryKey: ['dispatches', 'new', 'powerstations'] as const,
    queryFn: async () =>
      (await call(vppEndpoints.choices, { query: { limit: 1000, offset: 0, type: 'STATIC,DYNAMIC' } }, { errorToast: VPP_MESSAGES.loadFailed })).result,
    enabled,
  });
}
