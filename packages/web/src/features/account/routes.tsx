import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const accountRoutes: AreaRoute[] = [
  {
    path: '/user/settings',
    page: lazyPage(
      () => import('./user-settings-page.tsx'),
      (m) => m.UserSettingsPage,
    ),
  },
];
