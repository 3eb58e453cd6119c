import { dashboardEndpoints } from '@vpp/shared/dashboard/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { dashboardRoutes } from './dashboard.routes.ts';
import './dashboard.tables.ts';

/** The dashboard's fleet-wide map, totals and series, the ticker, and each user's saved widgets. */
export const dashboardModule: FeatureModule = { name: 'dashboard', endpoints: [dashboardEndpoints], routes: dashboardRoutes };
