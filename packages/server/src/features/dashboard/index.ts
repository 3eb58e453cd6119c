import { dashboardEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { dashboardRoutes } from './dashboard.routes.ts';

/** The dashboard's fleet-wide map, totals and series, and the ticker. */
export const dashboardModule: FeatureModule = { name: 'dashboard', endpoints: [dashboardEndpoints], routes: dashboardRoutes };
