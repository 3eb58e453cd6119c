import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { CreateDispatchBody } from '@vpp/shared/dispatches/schemas';
import { marketEndpoints } from '@vpp/shared/market/endpoints';
import { MESSAGES } from '@vpp/shared/messages';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

export { useDispatchPowerstations } from '../events/index.ts';

/** Query keys of the New Dispatch modal: all under ['dispatches'], so a new dispatch invalidates them with the list. */
export const newDispatchKeys = {
  all: ['dispatches'] as const,
  powerstations: ['dispatches', 'new', 'powerstations'] as const,
  price: (q: object) => ['dispatches', 'new', 'price', q] as const,
  messages: ['dispatches', 'messages'] as const,
};

export interface PriceArgs {
  powerstation: number;
  startTime: number;
  duration: number;
  realPowerP: number;
  powerFactor?: number;
}

/** The dispatch's cost and sell price at the forecast prices; only asked for by users who see market data. */
export function useDispatchPrice(q: PriceArgs | null) {
  return useQuery({
    queryKey: newDispatchKeys.price(q ?? {}),
    // The view shows the spec's price warnings in place of the prices: no toast.
    queryFn: () => call(marketEndpoints.dispatchPrice, { query: q as PriceArgs }, { quiet: true }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
}

/** The organisation's previous customer messages, newest first. */
export function useDispatchMessages(enabled: boolean) {
  return useQuery({
    queryKey: newDispatchKeys.messages,
    queryFn: async () => (await call(dispatchEndpoints.messages, {}, { errorToast: DISPATCH_MESSAGES.messagesFailed })).data.messages,
    enabled,
  });
}

/**
 * Executes the dispatch. A refusal the user can act on (a 4xx ERROR reply) shows the server's
 * data.message; any other failure 'Failed to execute Dispatch.'; success the spec's toast, and every
 * dispatch query is refreshed.
 */
export function useCreateDispatch() {
  return useMutation({
    mutationFn: async (body: CreateDispatchBody) => (await call(dispatchEndpoints.create, { body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', DISPATCH_MESSAGES.executed);
      return queryClient.invalidateQueries({ queryKey: newDispatchKeys.all });
    },
    onError: (err) => {
      // The request layer has already shown 'Not Authorized' for a 403.
      if (err instanceof ApiError && err.status === 403) return;
      const replied = err instanceof ApiError && (err.body as { status?: string } | null)?.status === 'ERROR' && err.status < 500;
      if (replied) toast('error', err.message);
      else toast('error', DISPATCH_MESSAGES.executeFailed, MESSAGES.tryAgainLater);
    },
  });
}
