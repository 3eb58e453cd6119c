import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const notificationsRoutes: AreaRoute[] = [
  {
    path: '/user/notifications',
    permission: null,
    page: lazyPage(
      () => import('./notification-list-page.tsx'),
      (m) => m.NotificationListPage,
    ),
  },
  {
    path: '/user/notifications/:id',
    permission: null,
    page: lazyPage(
      () => import('./notification-detail-page.tsx'),
      (m) => m.NotificationDetailPage,
    ),
  },
];
