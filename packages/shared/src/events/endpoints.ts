import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { vppIdParams } from '../vpps/endpoints.ts';
import { VPP_VIEW } from '../vpps/permissions.ts';
import { eventsQuery, eventsReply, powerstationEventsQuery } from './schemas.ts';

/**
 * Events on VPPs: dispatches, RERT dispatches, outages and curtailments share one table and one
 * timeline (upcoming, in progress, completed).
 */
export const eventEndpoints = defineEndpoints('events', {
  ofVpp: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/events',
    summary: "The VPP's events (status=INCOMPLETE: upcoming and in progress)",
    permission: VPP_VIEW,
    params: vppIdParams,
    query: powerstationEventsQuery,
    reply: eventsReply,
  }),
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/events',
    summary: "Events on the organisation's VPPs (state=INCOMPLETE: upcoming and in progress)",
    permission: { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view', 'fleet.dispatches.any', 'fleet.curtailments.any'] },
    query: eventsQuery,
    reply: eventsReply,
  }),
});
