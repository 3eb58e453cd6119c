import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const outagesRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/grid-outages',
    page: lazyPage(
      () => import('./outage-list-page.tsx'),
      (m) => m.OutageListPage,
    ),
    nav: { group: 'Virtual Power Plants', label: 'Grid Outages', permission: 'fleet.powerstations.gridOutages.any', order: 3 },
  },
  {
    path: '/virtual-power-plants/grid-outages/:id',
    page: lazyPage(
      () => import('./outage-detail-page.tsx'),
      (m) => m.OutageDetailPage,
    ),
  },
];
