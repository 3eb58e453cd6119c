import { CURTAILMENT_VIEW } from '@vpp/shared/curtailments/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const curtailmentsRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/feed-in-management',
    permission: CURTAILMENT_VIEW,
    page: lazyPage(
      () => import('./feed-in-management-page.tsx'),
      (m) => m.FeedInManagementPage,
    ),
    nav: {
      group: 'Virtual Power Plants',
      label: 'Feed-In Management',
      search: 'tab=CURTAILMENT_LIST&limit=10&offset=0',
      permission: CURTAILMENT_VIEW,
      order: 4,
    },
  },
  {
    path: '/virtual-power-plants/feed-in-management/:id',
    permission: CURTAILMENT_VIEW,
    title: 'Curtailment',
    page: lazyPage(
      () => import('./curtailment-detail-page.tsx'),
      (m) => m.CurtailmentDetailPage,
    ),
  },
];
