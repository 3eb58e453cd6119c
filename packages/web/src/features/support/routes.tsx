import { SUPPORT_PERMISSION } from '@vpp/shared/support/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const supportRoutes: AreaRoute[] = [
  {
    path: '/support-issues',
    permission: SUPPORT_PERMISSION,
    page: lazyPage(
      () => import('./support-page.tsx'),
      (m) => m.SupportPage,
    ),
    // The page lists the user's past requests a page at a time: its link opens with limit 10, as list pages' do.
    nav: { group: 'Support', label: 'Support', search: 'limit=10&offset=0', permission: SUPPORT_PERMISSION, order: 0 },
  },
];
