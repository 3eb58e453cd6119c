import { CUSTOMER_VIEW } from '@vpp/shared/customers/permissions';
import { Navigate } from 'react-router';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';
import { CUSTOMER_LIST_PATH } from './customer-paths.ts';

export const customersRoutes: AreaRoute[] = [
  {
    path: '/customers/manage',
    permission: CUSTOMER_VIEW,
    page: lazyPage(
      () => import('./customer-list-page.tsx'),
      (m) => m.CustomerListPage,
    ),
    nav: { group: 'Customers', label: 'Customers', search: 'limit=10&offset=0', permission: CUSTOMER_VIEW, order: 0 },
  },
  // Both paths are the list (spec 3 §2.1): the old one redirects, replacing itself in the history.
  { path: '/customers', element: <Navigate to={CUSTOMER_LIST_PATH} replace /> },
  {
    path: '/customers/manage/:nmi',
    permission: CUSTOMER_VIEW,
    title: 'Customer',
    page: lazyPage(
      () => import('./customer-detail-page.tsx'),
      (m) => m.CustomerDetailPage,
    ),
  },
];
