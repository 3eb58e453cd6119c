import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { dispatchEndpoints as E } from '@vpp/shared/dispatches/endpoints';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';
import { DISPATCH_SCREEN_TEXTS, type EventSource, REFRESH_SLOW_MS } from '../events/index.ts';

/** Query keys of the dispatch area: all start with ['dispatches'], which a new dispatch invalidates (the New Dispatch modal's contract). */
export const dispatchKeys = {
  all: ['dispatches'] as const,
  list: (q: { limit: number; offset: number }) => ['dispatches', 'list', q] as const,
};

export const DISPATCH_SOURCE: EventSource = {
  area: 'dispatches',
  detail: E.detail,
  prediction: E.prediction,
  response: E.response,
  remainingCharge: E.remainingCharge,
  cost: E.cost,
  loadFailed: DISPATCH_MESSAGES.loadFailed,
};

/** The list refreshes every 5 minutes (spec 3 §2.2). */
export function useDispatches(q: { limit: number; offset: number }) {
  return useQuery({
    queryKey: dispatchKeys.list(q),
    queryFn: () => call(E.list, { query: q }, { errorToast: DISPATCH_SCREEN_TEXTS.listFailed }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_SLOW_MS,
  });
}

/** Cancels a dispatch that has not ended; every dispatch query is refreshed after. */
export function useCancelDispatch() {
  return useMutation({
    mutationFn: (id: number) =>
      call(E.cancel, { params: { id } }, { errorToast: DISPATCH_SCREEN_TEXTS.cancelFailed, success: { title: DISPATCH_SCREEN_TEXTS.cancelled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dispatchKeys.all }),
  });
}
