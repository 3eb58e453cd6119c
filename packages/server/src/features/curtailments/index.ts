import { curtailmentEndpoints } from '@vpp/shared/curtailments/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { CURTAILMENT_ENGINE_RECURRING, curtailmentEngineJob } from './curtailments.jobs.ts';
import { curtailmentsRoutes } from './curtailments.routes.ts';
import { settleCurtailmentJob } from './curtailments.settlement.service.ts';
import './curtailments.tables.ts';
import './curtailments.settings.ts';

export { runCurtailmentEngine } from './curtailments.orders.service.ts';
export {
  type CurtailmentActor,
  cancelCurtailment,
  constraint as curtailmentConstraint,
  createCurtailment,
  createImportLimit,
  curtailmentResponse,
  findCurtailment,
} from './curtailments.service.ts';
export { settleCurtailment } from './curtailments.settlement.service.ts';

/** Curtailments and default setpoints: limits on a VPP's export or solar (and a network's import limits), split into per-node CSIP-AUS limits by the engine. */
export const curtailmentsModule: FeatureModule = {
  name: 'curtailments',
  endpoints: [curtailmentEndpoints],
  routes: curtailmentsRoutes,
  jobs: [curtailmentEngineJob, settleCurtailmentJob],
  recurring: [CURTAILMENT_ENGINE_RECURRING],
};
