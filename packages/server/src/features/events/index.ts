import { eventEndpoints } from '@vpp/shared/events/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { eventsRoutes } from './events.routes.ts';
import './events.settings.ts';

export {
  DEFAULT_TIME_ZONE,
  type ForecastAdjustment,
  type ForecastNode,
  type ForecastWindow,
  forecastSteps,
  forecastVpp,
  forecastWindow,
  type ImportCap,
  type PowerInterval,
  predictionWarning,
  STEP_S,
  toForecastNode,
  toModelNode,
  type VppForecast,
} from './events.forecast.service.ts';
export {
  type BatteryRow,
  dueEvents,
  EVENT_COLUMNS,
  eventPowerstation,
  eventTimes,
  markChecked,
  markOrdersSent,
  type NodeStateRow,
  nodeFacts,
  REPORTING_WINDOW_S,
  reportingBatteries,
  reportingNodes,
  reportingNow,
} from './events.repo.ts';
export {
  type AuditAction,
  audit,
  auditTrail,
  cancelByKind,
  type EventKind,
  type EventRow,
  insertEvent,
  moveUpcomingEvent,
  nameOf,
  presentEvent,
  requireEvent,
  withdrawEvent,
} from './events.service.ts';
export {
  type MeasuredSettlement,
  pricesActual,
  queueSettlements,
  type SettlementKind,
  type SettlingEvent,
  settledEnd,
  settleEvent,
} from './events.settlement.service.ts';
export type { EventAuditTable, EventTable } from './events.tables.ts';

/**
 * Events on VPPs. Dispatches, RERT dispatches, outages and curtailments are kinds of event: they
 * share this area's table, states and timeline, and add their own details beside it; and its kernel:
 * find/require/present of an event of a kind, the audit trail, cancel by kind, the settlement queue
 * and the forecast of a VPP's window.
 */
export const eventsModule: FeatureModule = { name: 'events', endpoints: [eventEndpoints], routes: eventsRoutes };
