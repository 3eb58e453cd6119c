import { VPP_EDIT, VPP_VIEW } from '@vpp/shared/vpps/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const vppsRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/manage',
    permission: VPP_VIEW,
    title: 'Virtual Power Plants',
    page: lazyPage(
      () => import('./vpp-list-page.tsx'),
      (m) => m.VppListPage,
    ),
    nav: { group: 'Virtual Power Plants', label: 'Build and Edit', search: 'limit=10&offset=0', permission: 'fleet.powerstations.any', order: 0 },
  },
  {
    path: '/virtual-power-plants/manage/new',
    permission: VPP_EDIT,
    title: 'New Virtual Power Plant',
    page: lazyPage(
      () => import('./vpp-create-page.tsx'),
      (m) => m.VppCreatePage,
    ),
  },
  {
    path: '/virtual-power-plants/manage/:id',
    permission: VPP_VIEW,
    title: 'Virtual Power Plant',
    page: lazyPage(
      () => import('./vpp-detail-page.tsx'),
      (m) => m.VppDetailPage,
    ),
  },
  {
    path: '/virtual-power-plants/manage/:id/edit',
    permission: VPP_EDIT,
    title: 'Edit Virtual Power Plant',
    page: lazyPage(
      () => import('./vpp-edit-page.tsx'),
      (m) => m.VppEditPage,
    ),
  },
];
