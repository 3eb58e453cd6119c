import { CUSTOMER_VIEW } from '@vpp/shared';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

const customerList = lazyPage(
  () => import('./customer-list-page.tsx'),
  (m) => m.CustomerListPage,
);

export const customersRoutes: AreaRoute[] = [
  {
    path: '/customers/manage',
    page: customerList,
    nav: { group: 'Customers', label: 'Customers', search: 'limit=10&offset=0', permission: CUSTOMER_VIEW, order: 0 },
  },
  // Both paths are the list (spec 3 §2.1).
  { path: '/customers', page: customerList },
  {
    path: '/customers/manage/:nmi',
    page: lazyPage(
      () => import('./customer-detail-page.tsx'),
      (m) => m.CustomerDetailPage,
    ),
  },
];
