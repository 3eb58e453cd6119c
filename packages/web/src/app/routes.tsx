import { accountRoutes } from '../features/account/routes.tsx';
import { billingRoutes } from '../features/billing/routes.tsx';
import { curtailmentsRoutes } from '../features/curtailments/routes.tsx';
import { customersRoutes } from '../features/customers/routes.tsx';
import { dashboardRoutes } from '../features/dashboard/routes.tsx';
import { dispatchesRoutes } from '../features/dispatches/routes.tsx';
import { exportsRoutes } from '../features/exports/routes.tsx';
import { kitDesignerRoutes } from '../features/kit-designer/routes.tsx';
import { nodesRoutes } from '../features/nodes/routes.tsx';
import { notificationsRoutes } from '../features/notifications/routes.tsx';
import { openadrRoutes } from '../features/openadr/routes.tsx';
import { outagesRoutes } from '../features/outages/routes.tsx';
import { passwordRoutes } from '../features/password/routes.tsx';
import { plansRoutes } from '../features/plans/routes.tsx';
import { rertRoutes } from '../features/rert/routes.tsx';
import { supportRoutes } from '../features/support/routes.tsx';
import { usersRoutes } from '../features/users/routes.tsx';
import { vppsRoutes } from '../features/vpps/routes.tsx';
import type { AreaRoute } from '../lib/routes.tsx';
import { LoginShell } from './login-shell.tsx';
import { NotFoundPage } from './not-found-page.tsx';

// Each area's routes.tsx rather than its index.ts: the entry chunk then holds only route metadata
// and lazy imports, not the areas' API modules that their index.ts brings along.

/** Every route of the app: each area's routes, then the app's own. The router and the sidebar are both built from this table. */
export const ROUTES: AreaRoute[] = [
  ...dashboardRoutes,
  ...accountRoutes,
  ...notificationsRoutes,
  ...usersRoutes,
  ...openadrRoutes,
  ...nodesRoutes,
  ...vppsRoutes,
  ...dispatchesRoutes,
  ...outagesRoutes,
  ...rertRoutes,
  ...curtailmentsRoutes,
  ...passwordRoutes,
  ...kitDesignerRoutes,
  ...supportRoutes,
  ...customersRoutes,
  ...plansRoutes,
  ...billingRoutes,
  ...exportsRoutes,
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
