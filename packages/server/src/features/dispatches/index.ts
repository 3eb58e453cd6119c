import { dispatchEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { DISPATCH_ENGINE_RECURRING, dispatchEngineJob } from './dispatches.jobs.ts';
import { dispatchesRoutes } from './dispatches.routes.ts';
import { settleDispatchJob } from './dispatches.settlement.ts';

export { type ExternalResponse, useExternalResponses } from './dispatches.external.ts';
export { queueSettlements, type SettlementKind, settleDispatch, settledEnd } from './dispatches.settlement.ts';

import './dispatches.tables.ts';

export { tickerDispatches } from './dispatches.commands.ts';
export {
  type Allocation,
  type AllocNode,
  type AllocRequest,
  allocate,
  type ForecastNode,
  forecast,
  forecastSteps,
  type NodeAllocation,
  type PowerInterval,
  STEP_S,
} from './dispatches.engine.ts';
export { constraints, DEFAULT_TIME_ZONE, predictionWarning, toForecastNode } from './dispatches.service.ts';

/** Dispatches: a VPP's constraints and predictions, the dispatches themselves and the engine that sends their orders. */
export const dispatchesModule: FeatureModule = {
  name: 'dispatches',
  endpoints: [dispatchEndpoints],
  routes: dispatchesRoutes,
  jobs: [dispatchEngineJob, settleDispatchJob],
  recurring: [DISPATCH_ENGINE_RECURRING],
};
export {
  AUTOMATIC,
  cancelDispatch,
  createDispatch,
  dispatchDetail,
  dispatchPrediction,
  dispatchResponse,
  listDispatches,
  optOutOfDispatch,
  previousMessages,
  remainingCharge,
  requireDispatch,
} from './dispatches.commands.ts';
export { commandsOf, ORDER_LEAD_S, runDispatchEngine } from './dispatches.jobs.ts';
export { BASELINE, medianOf, meterBaselines, weightedError } from './dispatches.measurement.ts';
export { allocationFor, allocNode, commandSource } from './dispatches.orders.ts';
export {
  audit,
  auditOf,
  busyNodes,
  type DispatchRow,
  lockNodes,
  overlapping,
  REPORTING_WINDOW_S,
  RERT_EVENT,
  reportingBatteries,
  reportingNodes,
  storeAllocation,
  storeRertActivation,
} from './dispatches.repo.ts';
