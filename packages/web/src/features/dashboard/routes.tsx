import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

const DashboardPage = lazyPage(
  () => import('./dashboard-page.tsx'),
  (m) => m.DashboardPage,
);

export const dashboardRoutes: AreaRoute[] = [
  { path: '/', page: DashboardPage, permission: null, nav: { group: 'Dashboard', label: 'Dashboard', permission: null, order: 0 } },
  { path: '/index.html', page: DashboardPage, permission: null },
];
