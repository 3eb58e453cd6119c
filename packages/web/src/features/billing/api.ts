import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { billingEndpoints as E } from '@vpp/shared/billing/endpoints';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import type { BillingInterval, BillingItemsQuery } from '@vpp/shared/billing/schemas';
import { MESSAGES } from '@vpp/shared/messages';
import { queryClient } from '../../lib/query-client.ts';
import { API_BASE, ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

/** Query keys of the billing area. */
export const billingKeys = {
  all: ['billing'] as const,
  monthly: ['billing', 'monthly'] as const,
  customers: (interval: BillingInterval) => ['billing', 'customers', interval] as const,
  items: (q: BillingItemsQuery) => ['billing', 'items', q] as const,
  invoices: ['billing', 'invoices'] as const,
};

/** Grid credits by month, latest first. */
export function useBillingMonthly() {
  return useQuery({
    queryKey: billingKeys.monthly,
    queryFn: async () => (await call(E.monthly, {}, { errorToast: BILLING_MESSAGES.monthlyFailed })).data.months,
  });
}

/** Customers credited per day, week or month. */
export function useBillingCustomers(interval: BillingInterval) {
  return useQuery({
    queryKey: billingKeys.customers(interval),
    queryFn: async () => (await call(E.customers, { query: { interval } }, { errorToast: BILLING_MESSAGES.monthlyFailed })).data.items,
    placeholderData: keepPreviousData,
  });
}

/** The line items of a range, a page at a time; nothing is asked while `enabled` is false (no range, or a refused one). */
export function useBillingItems(q: BillingItemsQuery, enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.items(q),
    queryFn: async () => (await call(E.items, { query: q }, { errorToast: BILLING_MESSAGES.itemsFailed })).data,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The organisation's invoices, latest first. */
export function useInvoices() {
  return useQuery({
    queryKey: billingKeys.invoices,
    // The invoices, and whether the caller may set them paid (the platform's billing administrators only).
    queryFn: async () => (await call(E.invoices, {}, { errorToast: BILLING_MESSAGES.invoicesFailed })).data,
  });
}

/** Marks an invoice paid or unpaid (administrators: INVOICES_MARK_PAID). */
export function useSetInvoicePaid() {
  return useMutation({
    mutationFn: async (v: { id: number; paid: boolean }) => (await call(E.invoicePaid, { params: { id: v.id }, body: { paid: v.paid } }, { quiet: true })).data,
    onSuccess: (invoice) => {
      toast('success', invoice.paid ? BILLING_MESSAGES.markedPaid : BILLING_MESSAGES.markedUnpaid);
      return queryClient.invalidateQueries({ queryKey: billingKeys.invoices });
    },
    onError: (err: unknown) => {
      // The request layer has said 'Not Authorized' for a 403.
      if (err instanceof ApiError && err.status === 403) return;
      const replied = err instanceof ApiError && (err.body as { status?: string } | null)?.status === 'ERROR' && err.status < 500;
      toast('error', BILLING_MESSAGES.markPaidFailed, replied ? err.message : MESSAGES.tryAgainLater);
    },
  });
}

/**
 * Starts a download (a CSV, an invoice PDF: the server sends each as an attachment) without putting
 * the session's token in a URL: the server gives a single-use token for this exact path and query,
 * valid a minute, and a link to the file with it is followed at once. Following a link to an
 * attachment saves the file and leaves the page as it is.
 */
export async function openDownload(path: string): Promise<void> {
  let url: string;
  try {
    url = (await call(E.downloadToken, { body: { path } }, { errorToast: BILLING_MESSAGES.downloadFailed })).data.url;
  } catch {
    return;
  }
  const a = document.createElement('a');
  a.href = `${API_BASE}${url}`;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
}
