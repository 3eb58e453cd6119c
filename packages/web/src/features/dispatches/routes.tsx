import { DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import { Navigate } from 'react-router';
import { type AreaRoute, lazyPage, RedirectWithId } from '../../lib/routes.tsx';

export const dispatchesRoutes: AreaRoute[] = [
  {
    path: '/virtual-power-plants/dispatches',
    permission: DISPATCH_VIEW,
    page: lazyPage(
      () => import('./dispatch-list-page.tsx'),
      (m) => m.DispatchListPage,
    ),
    nav: { group: 'Virtual Power Plants', label: 'Dispatches', search: 'limit=10&offset=0', permission: 'fleet.dispatches.any', order: 1 },
  },
  {
    path: '/virtual-power-plants/dispatches/:id',
    permission: DISPATCH_VIEW,
    title: 'Dispatch',
    page: lazyPage(
      () => import('./dispatch-detail-page.tsx'),
      (m) => m.DispatchDetailPage,
    ),
  },
  // The old paths (spec 3 §2.1).
  { path: '/trading/dispatches', element: <Navigate to="/virtual-power-plants/dispatches" replace /> },
  { path: '/trading/dispatches/:id', element: <RedirectWithId to={(id) => `/virtual-power-plants/dispatches/${id}`} /> },
];
