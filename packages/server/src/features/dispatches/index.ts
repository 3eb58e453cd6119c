import { dispatchEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { DISPATCH_ENGINE_RECURRING, dispatchEngineJob } from './dispatches.jobs.ts';
import { dispatchesRoutes } from './dispatches.routes.ts';
import './dispatches.tables.ts';

export { type Allocation, type AllocNode, type AllocRequest, allocate, type NodeAllocation, type PowerInterval } from './dispatches.engine.ts';

/** Dispatches: a VPP's constraints and predictions, the dispatches themselves and the engine that sends their orders. */
export const dispatchesModule: FeatureModule = {
  name: 'dispatches',
  endpoints: [dispatchEndpoints],
  routes: dispatchesRoutes,
  jobs: [dispatchEngineJob],
  recurring: [DISPATCH_ENGINE_RECURRING],
};
