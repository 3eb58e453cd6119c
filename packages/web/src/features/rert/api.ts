import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { MESSAGES } from '@vpp/shared/messages';
import { rertEndpoints as E } from '@vpp/shared/rert/endpoints';
import { RERT_MESSAGES } from '@vpp/shared/rert/messages';
import type { CreateRertBody, RescheduleRertBody } from '@vpp/shared/rert/schemas';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';
import { type EventSource, REFRESH_SLOW_MS } from '../events/index.ts';

/** Query keys of the RERT area: all start with ['rert'], which every change invalidates. */
export const rertKeys = {
  all: ['rert'] as const,
  list: (q: { limit: number; offset: number }) => ['rert', 'list', q] as const,
  messages: ['rert', 'messages'] as const,
};

/** The RERT calls behind the dispatch detail page's parts. */
export const RERT_SOURCE: EventSource = {
  area: 'rert',
  detail: E.detail,
  prediction: E.prediction,
  response: E.response,
  remainingCharge: E.remainingCharge,
  loadFailed: RERT_MESSAGES.loadFailed,
};

/** The list refreshes every 5 minutes (spec 3 §2.5, §4). */
export function useRertDispatches(q: { limit: number; offset: number }) {
  return useQuery({
    queryKey: rertKeys.list(q),
    queryFn: () => call(E.list, { query: q }, { errorToast: RERT_MESSAGES.loadFailed }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_SLOW_MS,
  });
}

/** The organisation's previous RERT customer messages, newest first. */
export function useRertMessages(enabled: boolean) {
  return useQuery({
    queryKey: rertKeys.messages,
    queryFn: async () => (await call(E.messages, {}, { errorToast: DISPATCH_MESSAGES.messagesFailed })).data.messages,
    enabled,
  });
}

/**
 * A failure of a RERT change: a refusal the user can act on (a 4xx ERROR reply, e.g. 409 once it has
 * started) shows the server's data.message after the spec's text; anything else the spec's text.
 * The request layer has already shown 'Not Authorized' for a 403.
 */
function failed(text: string) {
  return (err: unknown) => {
    if (err instanceof ApiError && err.status === 403) return;
    const replied = err instanceof ApiError && (err.body as { status?: string } | null)?.status === 'ERROR' && err.status < 500;
    toast('error', text, replied ? err.message : MESSAGES.tryAgainLater);
  };
}

const refresh = () => queryClient.invalidateQueries({ queryKey: rertKeys.all });

/** Executes a new RERT dispatch (spec 3 §8 toasts). */
export function useCreateRert() {
  return useMutation({
    mutationFn: async (body: CreateRertBody) => (await call(E.create, { body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', RERT_MESSAGES.executed);
      return refresh();
    },
    onError: failed(RERT_MESSAGES.executeFailed),
  });
}

/** Moves an upcoming RERT dispatch. */
export function useRescheduleRert() {
  return useMutation({
    mutationFn: async (v: { id: number; body: RescheduleRertBody }) => (await call(E.reschedule, { params: { id: v.id }, body: v.body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', RERT_MESSAGES.rescheduled);
      return refresh();
    },
    onError: failed(RERT_MESSAGES.rescheduleFailed),
  });
}

/** Calls off an upcoming RERT dispatch. */
export function useCancelRert() {
  return useMutation({
    mutationFn: (id: number) => call(E.cancel, { params: { id } }, { quiet: true }),
    onSuccess: () => {
      toast('success', RERT_MESSAGES.cancelled);
      return refresh();
    },
    onError: failed(RERT_MESSAGES.cancelFailed),
  });
}
