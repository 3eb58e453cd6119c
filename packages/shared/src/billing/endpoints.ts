import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { BILLING_DOWNLOAD, GRIDCREDITS_VIEW, INVOICES_MARK_PAID, INVOICES_VIEW } from './permissions.ts';
import {
  billingCsvQuery,
  billingCustomersQuery,
  billingCustomersReply,
  billingItemsQuery,
  billingItemsReply,
  billingMonthlyReply,
  downloadTokenBody,
  downloadTokenReply,
  invoiceIdParams,
  invoiceListReply,
  invoicePaidBody,
  invoicePaidReply,
  invoicePdfParams,
  invoicePdfQuery,
} from './schemas.ts';

/**
 * Grid-credit billing and invoices (spec 3 §7 "Billing"). The CSV and PDF routes are opened as links:
 * they take a single-use download token (`?token=`, from `downloadToken`) in place of the bearer.
 */
export const billingEndpoints = defineEndpoints('billing', {
  items: endpoint({
    method: 'GET',
    path: '/billing/items',
    summary: 'Grid-credit line items whose local day is within start and end (YYYY-MM-DD, inclusive), paged',
    permission: GRIDCREDITS_VIEW,
    query: billingItemsQuery,
    reply: billingItemsReply,
  }),
  customers: endpoint({
    method: 'GET',
    path: '/billing/customers',
    summary: 'Customers credited per day, week or month (default month)',
    permission: GRIDCREDITS_VIEW,
    query: billingCustomersQuery,
    reply: billingCustomersReply,
  }),
  monthly: endpoint({
    method: 'GET',
    path: '/billing/monthly',
    summary: 'Grid credits by month: value, line items, events and customers, latest month first',
    permission: GRIDCREDITS_VIEW,
    reply: billingMonthlyReply,
  }),
  eventsCsv: endpoint({
    method: 'GET',
    path: '/billing/events/csv',
    summary: 'The line items of start to end as CSV (nmi, day, ts, type, amount, rate, cost), streamed',
    permission: GRIDCREDITS_VIEW,
    query: billingCsvQuery,
    download: true,
  }),
  monthCsv: endpoint({
    method: 'GET',
    path: '/billing/month/csv',
    summary: 'The summary of start to end as CSV: one row per customer (nmi, events, amount, cost), streamed',
    permission: GRIDCREDITS_VIEW,
    query: billingCsvQuery,
    download: true,
  }),
  invoices: endpoint({
    method: 'GET',
    path: '/billing/invoices',
    summary: "The organisation's invoices from the platform, latest first",
    permission: INVOICES_VIEW,
    reply: invoiceListReply,
  }),
  invoicePaid: endpoint({
    method: 'PUT',
    path: '/billing/invoices/:id/paid',
    summary: 'Marks an invoice paid or unpaid (an administrator of the organisation)',
    permission: INVOICES_MARK_PAID,
    params: invoiceIdParams,
    body: invoicePaidBody,
    reply: invoicePaidReply,
  }),
  invoicePdf: endpoint({
    method: 'GET',
    path: '/invoices/:id/:filename',
    summary: 'The tax invoice as PDF (`filename` is the one in its downloadURL, ending in .pdf)',
    permission: INVOICES_VIEW,
    params: invoicePdfParams,
    query: invoicePdfQuery,
    download: true,
  }),
  downloadToken: endpoint({
    method: 'POST',
    path: '/billing/download-token',
    summary: 'A single-use download token for one path and query, for this user and organisation, valid 60 s',
    auth: 'session',
    permission: BILLING_DOWNLOAD,
    body: downloadTokenBody,
    reply: downloadTokenReply,
  }),
});
