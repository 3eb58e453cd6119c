import { RERT_VIEW } from '@vpp/shared/rert/permissions';
import type { AreaRoute } from '../../lib/routes.tsx';
import { lazyPage } from '../../lib/routes.tsx';

export const rertRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/rert-dispatches',
    permission: RERT_VIEW,
    page: lazyPage(
      () => import('./rert-list-page.tsx'),
      (m) => m.RertListPage,
    ),
    nav: {
      group: 'Virtual Power Plants',
      label: 'RERT Dispatches',
      search: 'limit=10&offset=0',
      permission: { anyOf: ['fleet.rert.any', 'fleet.rert.dispatches.any'] },
      order: 2,
    },
  },
  {
    path: '/virtual-power-plants/rert-dispatches/:id',
    permission: RERT_VIEW,
    title: 'RERT Dispatch',
    page: lazyPage(
      () => import('./rert-detail-page.tsx'),
      (m) => m.RertDetailPage,
    ),
  },
];
