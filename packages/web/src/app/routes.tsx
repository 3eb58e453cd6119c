import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { UserSettingsPage } from '../features/account/user-settings-page.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { FleetMonitoringPage } from '../features/nodes/fleet-monitoring-page.tsx';
import { NodeDetailPage } from '../features/nodes/node-detail-page.tsx';
import { NotificationDetailPage } from '../features/notifications/notification-detail-page.tsx';
import { NotificationListPage } from '../features/notifications/notification-list-page.tsx';
import { DisavowPage } from '../features/password/disavow-page.tsx';
import { ForgotPasswordPage } from '../features/password/forgot-password-page.tsx';
import { ResetPasswordPage } from '../features/password/reset-password-page.tsx';
import { UserCreatePage } from '../features/users/user-create-page.tsx';
import { UserDetailPage } from '../features/users/user-detail-page.tsx';
import { UserEditPage } from '../features/users/user-edit-page.tsx';
import { UserListPage } from '../features/users/user-list-page.tsx';
import { VppCreatePage } from '../features/vpps/vpp-create-page.tsx';
import { VppDetailPage } from '../features/vpps/vpp-detail-page.tsx';
import { VppEditPage } from '../features/vpps/vpp-edit-page.tsx';
import { VppListPage } from '../features/vpps/vpp-list-page.tsx';
import { LoginShell } from './login-shell.tsx';
import type { NavEntry } from './navigation.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** One route of the app; `nav` puts it in the sidebar, `public` serves it without signing in. */
export interface AppRoute {
  path: string;
  element: ReactNode;
  nav?: NavEntry;
  public?: boolean;
}

function RedirectWithId({ to }: { to: (id: string) => string }) {
  const { id = '' } = useParams();
  return <Navigate to={to(id)} replace />;
}

/** Every route of the app: the router and the sidebar are both built from this table. */
export const ROUTES: AppRoute[] = [
  { path: '/', element: <DashboardPage />, nav: { group: 'Dashboard', label: 'Dashboard', permission: null, order: 0 } },
  { path: '/index.html', element: <DashboardPage /> },
  { path: '/user/settings', element: <UserSettingsPage /> },
  { path: '/user/notifications', element: <NotificationListPage /> },
  { path: '/user/notifications/:id', element: <NotificationDetailPage /> },
  {
    path: '/my-reposit/users',
    element: <UserListPage />,
    nav: { group: 'My Reposit', label: 'Users', search: 'limit=10&offset=0', permission: 'fleet.myReposit.users', order: 1 },
  },
  { path: '/my-reposit/users/new', element: <UserCreatePage /> },
  { path: '/my-reposit/users/:id', element: <UserDetailPage /> },
  { path: '/my-reposit/users/:id/edit', element: <UserEditPage /> },
  { path: '/fleet-status', element: <Navigate to="/fleet-monitoring" replace /> },
  { path: '/fleet-status/:id', element: <RedirectWithId to={(id) => `/fleet-monitoring/nodes/${id}`} /> },
  { path: '/fleet-monitoring', element: <Navigate to="/fleet-monitoring/nodes" replace /> },
  {
    path: '/fleet-monitoring/nodes',
    element: <FleetMonitoringPage />,
    nav: { group: 'Fleet Monitoring', label: 'Fleet Monitoring', search: 'tab=LIST&limit=10&offset=0', permission: 'fleet.node.any', order: 0 },
  },
  { path: '/fleet-monitoring/nodes/:id', element: <NodeDetailPage /> },
  {
    path: '/virtual-power-plants/manage',
    element: <VppListPage />,
    nav: { group: 'Virtual Power Plants', label: 'Build and Edit', search: 'limit=10&offset=0', permission: 'fleet.powerstations.any', order: 0 },
  },
  { path: '/virtual-power-plants/manage/new', element: <VppCreatePage /> },
  { path: '/virtual-power-plants/manage/:id', element: <VppDetailPage /> },
  { path: '/virtual-power-plants/manage/:id/edit', element: <VppEditPage /> },
  { path: '/trading/dispatches', element: <Navigate to="/virtual-power-plants/dispatches" replace /> },
  { path: '/trading/dispatches/:id', element: <RedirectWithId to={(id) => `/virtual-power-plants/dispatches/${id}`} /> },
  { path: '/customers', element: <Navigate to="/customers/manage" replace /> },
  {
    path: '/password/forgot',
    element: (
      <LoginShell>
        <ForgotPasswordPage />
      </LoginShell>
    ),
    public: true,
  },
  {
    path: '/password/reset',
    element: (
      <LoginShell>
        <ResetPasswordPage />
      </LoginShell>
    ),
    public: true,
  },
  {
    path: '/password/reset/disavow',
    element: (
      <LoginShell>
        <DisavowPage />
      </LoginShell>
    ),
    public: true,
  },
  {
    path: '/password/*',
    element: (
      <LoginShell title="Page not found">
        <NotFoundPage inPanel />
      </LoginShell>
    ),
    public: true,
  },
  { path: '*', element: <NotFoundPage /> },
];
