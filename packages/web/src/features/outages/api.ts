import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReplyOf } from '@vpp/shared/api/endpoint';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { outageEndpoints as E } from '@vpp/shared/outages/endpoints';
import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import type { CreateOutageBody } from '@vpp/shared/outages/schemas';
import { queryClient } from '../../lib/query-client.ts';
import { call, refreshUnlessNotFound } from '../../lib/request.ts';
import { REFRESH_SLOW_MS } from '../events/index.ts';
import { outageRefreshMs, sortOutages } from './outage-format.ts';

export const outageKeys = {
  all: ['grid-outages'] as const,
  list: ['grid-outages', 'list'] as const,
  detail: (id: number) => ['grid-outages', id, 'detail'] as const,
  response: (id: number) => ['grid-outages', id, 'response'] as const,
};

/** The list reloads every 5 minutes (spec 3 §2.6). */
export function useOutages() {
  return useQuery({
    queryKey: outageKeys.list,
    queryFn: () => call(E.list, { query: { contract_type: 'GRID_OUTAGE' } }, { errorToast: OUTAGE_MESSAGES.loadListFailed }),
    refetchInterval: REFRESH_SLOW_MS,
  });
}

/** A page of the outages, sorted as spec 3 §2.6 asks: the list call answers them all. */
export function useOutagePage(q: { limit: number; offset: number }) {
  const outages = useOutages();
  const all = outages.data ? sortOutages(outages.data.data.outages) : undefined;
  return { rows: all?.slice(q.offset, q.offset + q.limit), total: all?.length ?? 0, isLoading: outages.isLoading, dataUpdatedAt: outages.dataUpdatedAt };
}

type DetailReply = ReplyOf<typeof E.detail>;

/** An outage, refreshed by the periods of spec 3 §4. */
export function useOutage(id: number) {
  return useQuery({
    queryKey: outageKeys.detail(id),
    queryFn: () => call(E.detail, { params: { id } }, { errorToast: OUTAGE_MESSAGES.loadFailed, notFoundInPage: true }),
    refetchInterval: refreshUnlessNotFound<DetailReply>((d) => outageRefreshMs(d.data, Date.now())),
    retry: false,
  });
}

export function useOutageResponse(id: number, refreshMs: number | false, enabled: boolean) {
  return useQuery({
    queryKey: outageKeys.response(id),
    queryFn: () => call(E.response, { params: { id } }, { errorToast: OUTAGE_MESSAGES.loadResponseFailed, notFoundInPage: true }),
    refetchInterval: refreshMs,
    enabled,
  });
}

export function useCreateOutage() {
  return useMutation({
    mutationFn: (body: CreateOutageBody) =>
      call(E.create, { body }, { errorToast: OUTAGE_MESSAGES.executeFailed, success: { title: OUTAGE_MESSAGES.executed } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outageKeys.all }),
  });
}

/** Cancels through the dispatches' cancel call (spec 3 §7). */
export function useCancelOutage() {
  return useMutation({
    mutationFn: (id: number) =>
      call(dispatchEndpoints.cancel, { params: { id } }, { errorToast: OUTAGE_MESSAGES.cancelFailed, success: { title: OUTAGE_MESSAGES.cancelled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: outageKeys.all }),
  });
}
