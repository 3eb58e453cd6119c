import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { dispatchEventReads } from '../dispatches/endpoints.ts';
import { createDispatchReply, dispatchMessagesReply } from '../dispatches/schemas.ts';
import { RERT_EDIT, RERT_VIEW } from './permissions.ts';
import { createRertBody, rescheduleRertBody, rescheduleRertReply } from './schemas.ts';

const rertIdParams = z.object({ id: recordId('rert dispatch', 'The RERT dispatch id') });

/** RERT dispatches (spec 3 §7 RERT): another kind of dispatch event, which can be moved or called off while upcoming. */
export const rertEndpoints = defineEndpoints('rert', {
  ...dispatchEventReads({ path: '/api/rert-dispatches', name: 'RERT dispatch', plural: 'RERT dispatches', params: rertIdParams, permission: RERT_VIEW }),
  messages: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/messages',
    summary: 'The customer messages of earlier RERT dispatches, newest first',
    permission: RERT_VIEW,
    reply: dispatchMessagesReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/rert-dispatches',
    summary: 'Activate reserve: a discharge (or lockout) of a VPP, checked against its constraints and stored with its allocation',
    permission: RERT_EDIT,
    body: createRertBody,
    reply: createDispatchReply,
  }),
  cancel: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/rert-dispatches/:id/cancel',
    summary: 'Call off an upcoming RERT dispatch: its orders are withdrawn (409 once it has started)',
    permission: RERT_EDIT,
    params: rertIdParams,
    reply: statusReply,
  }),
  reschedule: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/rert-dispatches/:id/reschedule',
    summary: 'Move an upcoming RERT dispatch: re-allocated, its orders re-sent for the new window (409 once it has started)',
    permission: RERT_EDIT,
    params: rertIdParams,
    body: rescheduleRertBody,
    reply: rescheduleRertReply,
  }),
});
