import { Navigate } from 'react-router';
import { type AreaRoute, lazyPage, RedirectWithId } from '../../lib/routes.tsx';

export const nodesRoutes: AreaRoute[] = [
  { path: '/fleet-status', element: <Navigate to="/fleet-monitoring" replace /> },
  { path: '/fleet-status/:id', element: <RedirectWithId to={(id) => `/fleet-monitoring/nodes/${id}`} /> },
  { path: '/fleet-monitoring', element: <Navigate to="/fleet-monitoring/nodes" replace /> },
  {
    path: '/fleet-monitoring/nodes',
    permission: 'fleet.node.any',
    page: lazyPage(
      () => import('./fleet-monitoring-page.tsx'),
      (m) => m.FleetMonitoringPage,
    ),
    nav: { group: 'Fleet Monitoring', label: 'Fleet Monitoring', search: 'tab=LIST&limit=10&offset=0', permission: 'fleet.node.any', order: 0 },
  },
  {
    path: '/fleet-monitoring/nodes/:id',
    permission: 'fleet.node.any',
    title: 'Node',
    page: lazyPage(
      () => import('./node-detail-page.tsx'),
      (m) => m.NodeDetailPage,
    ),
  },
];
