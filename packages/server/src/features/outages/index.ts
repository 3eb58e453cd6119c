import { outageEndpoints } from '@vpp/shared/outages/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { OUTAGE_ENGINE_RECURRING, outageEngineJob } from './outages.jobs.ts';
import { outagesRoutes } from './outages.routes.ts';
import './outages.tables.ts';

export { cancelOutage, nodeOfAppToken, optOutOfOutage } from './outages.service.ts';

/** Grid outages: a VPP's batteries charged to full ahead of a warned outage and held as backup through it; customers may opt out. */
export const outagesModule: FeatureModule = {
  name: 'outages',
  endpoints: [outageEndpoints],
  routes: outagesRoutes,
  jobs: [outageEngineJob],
  recurring: [OUTAGE_ENGINE_RECURRING],
};
