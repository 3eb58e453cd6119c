import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const curtailmentsRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/feed-in-management',
    page: lazyPage(
      () => import('./feed-in-management-page.tsx'),
      (m) => m.FeedInManagementPage,
    ),
    nav: {
      group: 'Virtual Power Plants',
      label: 'Feed-In Management',
      search: 'tab=CURTAILMENT_LIST&limit=10&offset=0',
      permission: 'fleet.curtailments.any',
      order: 4,
    },
  },
  {
    path: '/virtual-power-plants/feed-in-management/:id',
    page: lazyPage(
      () => import('./curtailment-detail-page.tsx'),
      (m) => m.CurtailmentDetailPage,
    ),
  },
];
