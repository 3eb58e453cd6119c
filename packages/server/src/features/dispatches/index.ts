import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { DISPATCH_ENGINE_RECURRING, dispatchEngineJob } from './dispatches.jobs.ts';
import { dispatchesRoutes } from './dispatches.routes.ts';
import { settleDispatchJob } from './dispatches.settlement.service.ts';

export { type ExternalResponse, useExternalResponses } from './dispatches.external.service.ts';
export { settleDispatch } from './dispatches.settlement.service.ts';

import './dispatches.tables.ts';
import './dispatches.settings.ts';

export {
  type Allocation,
  type AllocNode,
  type AllocRequest,
  allocate,
  type NodeAllocation,
} from './dispatches.engine.ts';
export { constraints } from './dispatches.forecast.service.ts';
export { BASELINE, medianOf, meterBaselines, weightedError } from './dispatches.measurement.service.ts';
export { markNodesSent, resetOrders } from './dispatches.orders.repo.ts';
export { commandsOf, ORDER_LEAD_S, runDispatchEngine } from './dispatches.orders.service.ts';
export { allocationFor, allocNode, commandSource } from './dispatches.orders.ts';
export { dispatchResponse } from './dispatches.outcome.service.ts';
export {
  busyNodes,
  type DispatchRow,
  lockNodes,
  overlapping,
  RERT_EVENT,
  storeAllocation,
  storeRertActivation,
} from './dispatches.repo.ts';
export { type DispatchReadEndpoints, dispatchReadRoutes } from './dispatches.routes.ts';
export {
  AUTOMATIC,
  cancelDispatch,
  createDispatch,
  dispatchDetail,
  dispatchPrediction,
  listDispatches,
  optOutOfDispatch,
  previousMessages,
  remainingCharge,
  requireDispatch,
  tickerDispatches,
} from './dispatches.service.ts';

/** Dispatches: a VPP's constraints and predictions, the dispatches themselves and the engine that sends their orders. */
export const dispatchesModule: FeatureModule = {
  name: 'dispatches',
  endpoints: [dispatchEndpoints],
  routes: dispatchesRoutes,
  jobs: [dispatchEngineJob, settleDispatchJob],
  recurring: [DISPATCH_ENGINE_RECURRING],
};
