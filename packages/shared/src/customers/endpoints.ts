import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { CUSTOMER_VIEW, PLAN_VIEW } from './permissions.ts';
import { billEstimateReply, customerDetailReply, customerIdParams, customerListQuery, customerListReply, customerPlanReply } from './schemas.ts';

/**
 * Customers (spec 3 §7): one per NMI of the organisation's fleet. `{id}` is the NMI. Retail plan
 * fields are answered to RETAILER organisations only, network information to NETWORK ones only.
 */
export const customerEndpoints = defineEndpoints('customers', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/customer',
    summary: 'The customers of the fleet, by NMI: search on NMI or address, Tariff (retailers), Capabilities, paged',
    permission: CUSTOMER_VIEW,
    query: customerListQuery,
    reply: customerListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/customer/:id',
    summary: 'A customer: address and location, system, agreement, contracts, and capabilities over time',
    permission: CUSTOMER_VIEW,
    params: customerIdParams,
    reply: customerDetailReply,
  }),
  plan: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/customer/:id/plan',
    summary: "The customer's current plan (RETAILER organisations)",
    permission: PLAN_VIEW,
    params: customerIdParams,
    reply: customerPlanReply,
  }),
  billEstimate: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/customer/:id/bill-estimate',
    summary: "The customer's energy bill this month so far and last month under its plan, from its metered 5-minute import and export (RETAILER organisations)",
    permission: PLAN_VIEW,
    params: customerIdParams,
    reply: billEstimateReply,
  }),
});
