import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const vppsRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/manage',
    page: lazyPage(
      () => import('./vpp-list-page.tsx'),
      (m) => m.VppListPage,
    ),
    nav: { group: 'Virtual Power Plants', label: 'Build and Edit', search: 'limit=10&offset=0', permission: 'fleet.powerstations.any', order: 0 },
  },
  {
    path: '/virtual-power-plants/manage/new',
    page: lazyPage(
      () => import('./vpp-create-page.tsx'),
      (m) => m.VppCreatePage,
    ),
  },
  {
    path: '/virtual-power-plants/manage/:id',
    page: lazyPage(
      () => import('./vpp-detail-page.tsx'),
      (m) => m.VppDetailPage,
    ),
  },
  {
    path: '/virtual-power-plants/manage/:id/edit',
    page: lazyPage(
      () => import('./vpp-edit-page.tsx'),
      (m) => m.VppEditPage,
    ),
  },
];
