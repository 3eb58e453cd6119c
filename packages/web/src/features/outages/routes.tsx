import { OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const outagesRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/grid-outages',
    permission: OUTAGE_VIEW,
    page: lazyPage(
      () => import('./outage-list-page.tsx'),
      (m) => m.OutageListPage,
    ),
    nav: { group: 'Virtual Power Plants', label: 'Grid Outages', permission: 'fleet.powerstations.gridOutages.any', order: 3 },
  },
  {
    path: '/virtual-power-plants/grid-outages/:id',
    permission: OUTAGE_VIEW,
    title: 'Grid Outage',
    page: lazyPage(
      () => import('./outage-detail-page.tsx'),
      (m) => m.OutageDetailPage,
    ),
  },
];
