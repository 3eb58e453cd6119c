import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const notificationsRoutes: AreaRoute[] = [
  {
    path: '/user/notifications',
    page: lazyPage(
      () => import('./notification-list-page.tsx'),
      (m) => m.NotificationListPage,
    ),
  },
  {
    path: '/user/notifications/:id',
    page: lazyPage(
      () => import('./notification-detail-page.tsx'),
      (m) => m.NotificationDetailPage,
    ),
  },
];
