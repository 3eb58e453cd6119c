import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

const page = lazyPage(
  () => import('./dashboard-page.tsx'),
  (m) => m.DashboardPage,
);
const loadPage = page.preload;
// Opened at the dashboard with a stored session, the layout is asked as the account arrives, while
// the page's modules load (its small module asked first, ahead of the page's dozens).
const DashboardPage = Object.assign(page, {
  preload: () => Promise.all([import('./get-layout.ts').then((m) => m.prefetchDashboardLayout()).catch(() => undefined), loadPage?.()]),
});

export const dashboardRoutes: AreaRoute[] = [
  { path: '/', page: DashboardPage, permission: null, nav: { group: 'Dashboard', label: 'Dashboard', permission: null, order: 0 } },
  { path: '/index.html', page: DashboardPage, permission: null },
];
