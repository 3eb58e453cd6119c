import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

/** The signed-out password pages (spec 1 §3), shown in the login shell. */
export const passwordRoutes: AreaRoute[] = [
  {
    path: '/password/forgot',
    page: lazyPage(
      () => import('./forgot-password-page.tsx'),
      (m) => m.ForgotPasswordPage,
    ),
    public: true,
  },
  {
    path: '/password/reset',
    page: lazyPage(
      () => import('./reset-password-page.tsx'),
      (m) => m.ResetPasswordPage,
    ),
    public: true,
  },
  {
    path: '/password/reset/disavow',
    page: lazyPage(
      () => import('./disavow-page.tsx'),
      (m) => m.DisavowPage,
    ),
    public: true,
  },
];
