import { rertEndpoints } from '@vpp/shared/rert/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { rertRoutes } from './rert.routes.ts';

export { createRert } from './rert.service.ts';

/** RERT dispatches: emergency reserve activations, dispatch events the engine sends like any other, movable while upcoming. */
export const rertModule: FeatureModule = {
  name: 'rert',
  endpoints: [rertEndpoints],
  routes: rertRoutes,
};
