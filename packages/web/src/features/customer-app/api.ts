import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerAppEndpoints as E } from '@vpp/shared/customer-app/endpoints';
import { call } from '../../lib/request.ts';

/** What the section says when the copies cannot be loaded (issue 34 item 12; the spec has no text for it). */
export const RECEIPTS_FAILED = 'Failed to load the customer message delivery.';
/** The copies' state changes as customers open their app: asked again every 30 s while shown. */
export const RECEIPTS_REFRESH_MS = 30_000;

export const receiptKeys = {
  all: ['customer-messages'] as const,
  page: (id: number, q: { limit: number; offset: number }) => ['customer-messages', id, q] as const,
};

/** Each node's copy of an event's customer message, a page of them. */
export function useMessageReceipts(id: number, q: { limit: number; offset: number }) {
  return useQuery({
    queryKey: receiptKeys.page(id, q),
    queryFn: () => call(E.receipts, { params: { id }, query: q }, { errorToast: RECEIPTS_FAILED }),
    placeholderData: keepPreviousData,
    refetchInterval: RECEIPTS_REFRESH_MS,
  });
}
