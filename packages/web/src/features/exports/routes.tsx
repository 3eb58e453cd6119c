import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_VIEW } from '@vpp/shared/exports/permissions';
import { type AreaRoute, lazyPage } from '../../lib/routes.tsx';
import { EXPORT_PATH } from './export-paths.ts';

export const exportsRoutes: AreaRoute[] = [
  {
    path: EXPORT_PATH,
    permission: EXPORT_VIEW,
    title: M.pageTitle,
    page: lazyPage(
      () => import('./export-list-page.tsx'),
      (m) => m.ExportListPage,
    ),
    nav: { group: 'Analysis', label: M.pageTitle, search: 'limit=10&offset=0', permission: EXPORT_VIEW, order: 0 },
  },
];
