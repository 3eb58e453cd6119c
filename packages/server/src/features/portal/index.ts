import { portalEndpoints } from '@vpp/shared/portal/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { portalRoutes } from './portal.routes.ts';
import './portal.settings.ts';

/** An inverter's web portal, opened from node detail with a single-use token. */
export const portalModule: FeatureModule = { name: 'portal', endpoints: [portalEndpoints], routes: portalRoutes };
