import { GRIDCREDITS_VIEW, INVOICES_VIEW } from '@vpp/shared/billing/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';
import { BILLING_PATH, BILLING_SEARCH_PATH, INVOICES_PATH } from './billing-paths.ts';

export const billingRoutes: AreaRoute[] = [
  {
    path: BILLING_PATH,
    permission: GRIDCREDITS_VIEW,
    page: lazyPage(
      () => import('./billing-summary-page.tsx'),
      (m) => m.BillingSummaryPage,
    ),
    nav: { group: 'GridCredits', label: 'Billing', search: 'limit=10&offset=0', permission: GRIDCREDITS_VIEW, order: 0 },
  },
  {
    path: BILLING_SEARCH_PATH,
    permission: GRIDCREDITS_VIEW,
    title: 'Search Transactions',
    page: lazyPage(
      () => import('./billing-search-page.tsx'),
      (m) => m.BillingSearchPage,
    ),
  },
  {
    path: INVOICES_PATH,
    permission: INVOICES_VIEW,
    page: lazyPage(
      () => import('./invoices-page.tsx'),
      (m) => m.InvoicesPage,
    ),
    nav: { group: 'My Reposit', label: 'Invoices', search: 'limit=10&offset=0', permission: INVOICES_VIEW, order: 2 },
  },
];
