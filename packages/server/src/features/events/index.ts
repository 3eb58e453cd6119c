import { eventEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { eventsRoutes } from './events.routes.ts';

export { dueEvents, EVENT_COLUMNS, eventPowerstation, eventTimes, markChecked, markOrdersSent, nodeFacts } from './events.repo.ts';
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
  pricesActual,
  queueSettlements,
  requireEvent,
  type SettlementKind,
  settledEnd,
  withdrawEvent,
} from './events.service.ts';
export type { EventAuditTable, EventTable } from './events.tables.ts';

/**
 * Events on VPPs. Dispatches, RERT dispatches, outages and curtailments are kinds of event: they
 * share this area's table, states and timeline, and add their own details beside it; and its kernel:
 * find/require/present of an event of a kind, the audit trail, cancel by kind and the settlement queue.
 */
export const eventsModule: FeatureModule = { name: 'events', endpoints: [eventEndpoints], routes: eventsRoutes };
