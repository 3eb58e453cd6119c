import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerEndpoints as E } from '@vpp/shared/customers/endpoints';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import type { CustomerListQuery } from '@vpp/shared/customers/schemas';
import { call } from '../../lib/request.ts';

export const customerKeys = {
  all: ['customers'] as const,
  list: (q: CustomerListQuery) => ['customers', 'list', q] as const,
  detail: (nmi: string) => ['customers', nmi, 'detail'] as const,
  plan: (nmi: string) => ['customers', nmi, 'plan'] as const,
  bill: (nmi: string) => ['customers', nmi, 'bill-estimate'] as const,
};

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
    queryFn: async () => (await call(E.detail, { params: { id: nmi } }, { errorToast: CUSTOMER_MESSAGES.detailFailed, notFoundInPage: true })).data,
    retry: false,
  });
}

/** The customer's current plan (retailers holding plans.any). */
export function useCustomerPlan(nmi: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.plan(nmi),
    queryFn: async () => (await call(E.plan, { params: { id: nmi } }, { errorToast: CUSTOMER_MESSAGES.planFailed, notFoundInPage: true })).data,
    retry: false,
    enabled,
  });
}

/** This month's and last month's bill under the customer's plan. */
export function useBillEstimate(nmi: string, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.bill(nmi),
    queryFn: async () => (await call(E.billEstimate, { params: { id: nmi } }, { errorToast: CUSTOMER_MESSAGES.billFailed, notFoundInPage: true })).data,
    retry: false,
    enabled,
  });
}
