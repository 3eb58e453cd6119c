import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { recordId } from '../api/inputs.ts';
import { DISPATCH_VIEW } from '../dispatches/permissions.ts';
import { OUTAGE_VIEW } from '../outages/permissions.ts';
import { RERT_VIEW } from '../rert/permissions.ts';
import {
  customerAppDeliveredReply,
  customerAppMessagesReply,
  customerAppReadReply,
  messageReceiptsQuery,
  messageReceiptsReply,
  optOutReply,
} from './schemas.ts';

/** The customer app names the event; its node is the bearer token's. */
const eventIdParams = z.object({ event: recordId('event', 'The event id') });
/** The console names an event of its organisation: a dispatch, a RERT dispatch or a grid outage. */
const consoleEventParams = z.object({ id: recordId('dispatch', 'The event id') });

const appAuth = "Authenticated by the node's customer-app token (`POST /api/nodes/{id}/customer-app-token`) as a bearer token, not a console session.";

/**
 * The customer app's side of the console (issue 34 item 12): a home's app reads the messages of the
 * events its node takes part in (which records them delivered), marks them read, and opts the home
 * out of a dispatch, a RERT dispatch or a grid outage. The console reads each node's state.
 */
export const customerAppEndpoints = defineEndpoints('customer-app', {
  messages: endpoint({
    method: 'GET',
    access: 'read',
    path: '/customer-app/messages',
    summary: `The messages of the events the app's home takes part in, newest first. ${appAuth}`,
    auth: 'public',
    permission: null,
    reply: customerAppMessagesReply,
  }),
  delivered: endpoint({
    method: 'POST',
    access: 'write',
    path: '/customer-app/messages/:event/delivered',
    summary: `The app received an event's message (its acknowledgement on arrival; the first time stands). ${appAuth}`,
    auth: 'public',
    permission: null,
    params: eventIdParams,
    reply: customerAppDeliveredReply,
  }),
  read: endpoint({
    method: 'POST',
    access: 'write',
    path: '/customer-app/messages/:event/read',
    summary: `The customer read an event's message, which was then delivered too (the first time stands). ${appAuth}`,
    auth: 'public',
    permission: null,
    params: eventIdParams,
    reply: customerAppReadReply,
  }),
  optOut: endpoint({
    method: 'POST',
    access: 'write',
    path: '/customer-app/events/:event/opt-out',
    summary: `The customer app opts its home out of a dispatch, a RERT dispatch or a grid outage: the node's orders still to come are withdrawn and its share counts as rejected. ${appAuth}`,
    auth: 'public',
    permission: null,
    params: eventIdParams,
    reply: optOutReply,
  }),
  receipts: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/events/:id/customer-messages',
    summary: "Each node's copy of an event's customer message: when it was sent, delivered to the app and read, and whether the customer opted out",
    permission: { anyOf: [DISPATCH_VIEW, ...RERT_VIEW.anyOf, OUTAGE_VIEW] },
    params: consoleEventParams,
    query: messageReceiptsQuery,
    reply: messageReceiptsReply,
  }),
});
