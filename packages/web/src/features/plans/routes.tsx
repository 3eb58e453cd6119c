import { PLAN_EDIT, PLAN_VIEW } from '@vpp/shared/customers/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const plansRoutes: AreaRoute[] = [
  {
    path: '/customers/plans',
    permission: PLAN_VIEW,
    page: lazyPage(
      () => import('./plan-list-page.tsx'),
      (m) => m.PlanListPage,
    ),
    nav: { group: 'Customers', label: 'Plans', search: 'limit=10&offset=0', permission: PLAN_VIEW, order: 1 },
  },
  {
    path: '/customers/plans/new',
    permission: PLAN_EDIT,
    title: 'New Plan',
    page: lazyPage(
      () => import('./plan-create-page.tsx'),
      (m) => m.PlanCreatePage,
    ),
  },
  {
    path: '/customers/plans/:planCode',
    permission: PLAN_VIEW,
    title: 'Plan',
    page: lazyPage(
      () => import('./plan-detail-page.tsx'),
      (m) => m.PlanViewPage,
    ),
  },
  {
    path: '/customers/plans/:planCode/edit',
    permission: PLAN_EDIT,
    title: 'Edit Plan',
    page: lazyPage(
      () => import('./plan-detail-page.tsx'),
      (m) => m.PlanEditPage,
    ),
  },
];
