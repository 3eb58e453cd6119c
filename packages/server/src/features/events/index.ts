import { eventEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { eventsRoutes } from './events.routes.ts';

export type { EventTable } from './events.tables.ts';

/**
 * Events on VPPs. Dispatches, RERT dispatches, outages and curtailments are kinds of event: they
 * share this area's table, states and timeline, and add their own details beside it.
 */
export const eventsModule: FeatureModule = { name: 'events', endpoints: [eventEndpoints], routes: eventsRoutes };
