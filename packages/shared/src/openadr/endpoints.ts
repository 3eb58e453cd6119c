import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { OPENADR_PERMISSION } from './permissions.ts';
import { openadrOverviewReply, venVppsBody } from './schemas.ts';

export const venIdParams = z.object({ id: recordId('openadr-ven', 'The VEN id') });

/** The console's side of the VTN (the VTN itself answers OpenADR's own paths under /openadr3/3.0.1). */
export const openadrEndpoints = defineEndpoints('openadr', {
  overview: endpoint({
    method: 'GET',
    access: 'read',
    path: '/openadr/overview',
    summary: "The VTN's base URL, the organisation's VENs with their resources and VPPs, and the subscriptions with their last delivery",
    permission: OPENADR_PERMISSION,
    reply: openadrOverviewReply,
  }),
  setVenVpps: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/openadr/vens/:id/vpps',
    summary: "The VPPs whose events go to a VEN (the events' VEN_NAME targets)",
    permission: OPENADR_PERMISSION,
    params: venIdParams,
    body: venVppsBody,
    reply: statusReply,
  }),
});
