import { OPENADR_PERMISSION } from '@vpp/shared/openadr/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const openadrRoutes: AreaRoute[] = [
  {
    path: '/my-reposit/openadr',
    permission: OPENADR_PERMISSION,
    page: lazyPage(
      () => import('./openadr-page.tsx'),
      (m) => m.OpenadrPage,
    ),
    nav: { group: 'My Reposit', label: 'OpenADR', permission: OPENADR_PERMISSION, order: 3 },
  },
];
