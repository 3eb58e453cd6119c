import { KIT_DESIGNER_PERMISSION } from '@vpp/shared/kit-designer/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';

export const kitDesignerRoutes: AreaRoute[] = [
  {
    path: '/ordering/kit-designer',
    permission: KIT_DESIGNER_PERMISSION,
    page: lazyPage(
      () => import('./kit-designer-page.tsx'),
      (m) => m.KitDesignerPage,
    ),
    nav: { group: 'Ordering', label: 'Kit Builder', permission: KIT_DESIGNER_PERMISSION, order: 0 },
  },
];
