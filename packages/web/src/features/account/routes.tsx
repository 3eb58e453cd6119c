import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const accountRoutes: AreaRoute[] = [
  {
    path: '/user/settings',
    permission: null,
    page: lazyPage(
      () => import('./user-settings-page.tsx'),
      (m) => m.UserSettingsPage,
    ),
  },
];
