import { dispatchEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { dispatchesRoutes } from './dispatches.routes.ts';

export { type Allocation, type AllocNode, type AllocRequest, allocate, type NodeAllocation, type PowerInterval } from './dispatches.engine.ts';

/** Dispatches: so far the constraints and predictions of a VPP, and the allocation the engine will send. */
export const dispatchesModule: FeatureModule = { name: 'dispatches', endpoints: [dispatchEndpoints], routes: dispatchesRoutes };
