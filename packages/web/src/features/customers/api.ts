import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CUSTOMER_MESSAGES, type CustomerListQuery, customerEndpoints as E, MESSAGES } from '@vpp/shared';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

export const customerKeys = {
  all: ['customers'] as const,
  list: (q: CustomerListQuery) => ['customers', 'list', q] as const,
  detail: (nmi: string) => ['customers', nmi, 'detail'] as const,
  plan: (nmi: string) => ['customers', nmi, 'plan'] as const,
  bill: (nmi: string) => ['customers', nmi, 'bill-estimate'] as const,
};

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** A 404 is left to the page (and a 401 or 403 to the request layer); other failures toast the call's text (spec 3 §8). */
async function quietly<T>(f: () => Promise<T>, failed: string): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof ApiError && ![401, 403, 404].includes(err.status)) toast('error', failed, MESSAGES.tryAgainLater);
    throw err;
  }
}

/** Ours: the spec gives the detail's and the plan's load failures, not the list's. */
export const CUSTOMERS_FAILED = 'Unable to fetch customers.';

/** The customer list: search, Tariff, Capabilities and paging as the URL says. */
export function useCustomers(q: CustomerListQuery) {
  return useQuery({
    queryKey: customerKeys.list(q),
    queryFn: async () => (await call(E.list, { query: q }, { errorToast: CUSTOMERS_FAILED })).data,
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(nmi: string) {
  return useQuery({
    queryKey: customerKeys.detail(nmi),
    queryFn: async () => (await quietly(() => call(E.detail, { params: { id: nmi } }, { quiet: true }), CUSTOMER_MESSAGES.detailFailed)).data,
    retry: false,
  });
}

/** The customer's current plan (retailers holding plans.any). */
export function useCustomerPlan(nmi: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.plan(nmi),
    queryFn: async () => (await quietly(() => call(E.plan, { params: { id: nmi } }, { quiet: true }), CUSTOMER_MESSAGES.planFailed)).data,
    retry: false,
    enabled,
  });
}

/** This month's and last month's bill under the customer's plan. */
export function useBillEstimate(nmi: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.bill(nmi),
    queryFn: async () => (await quietly(() => call(E.billEstimate, { params: { id: nmi } }, { quiet: true }), CUSTOMER_MESSAGES.billFailed)).data,
    retry: false,
    enabled,
  });
}
