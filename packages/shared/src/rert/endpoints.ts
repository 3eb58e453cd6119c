import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import {
  createDispatchReply,
  dispatchDetailReply,
  dispatchListQuery,
  dispatchListReply,
  dispatchMessagesReply,
  dispatchRemainingChargeReply,
  dispatchResponseReply,
  predictionsReply,
} from '../dispatches/schemas.ts';
import { RERT_EDIT, RERT_VIEW } from './permissions.ts';
import { createRertBody, rescheduleRertBody, rescheduleRertReply } from './schemas.ts';

const rertIdParams = z.object({ id: recordId('rert dispatch', 'The RERT dispatch id') });

/** RERT dispatches (spec 3 §7 RERT): another kind of dispatch event, which can be moved or called off while upcoming. */
export const rertEndpoints = defineEndpoints('rert', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches',
    summary: "The organisation's RERT dispatches, latest start first",
    permission: RERT_VIEW,
    query: dispatchListQuery,
    reply: dispatchListReply,
  }),
  messages: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/messages',
    summary: 'The customer messages of earlier RERT dispatches, newest first',
    permission: RERT_VIEW,
    reply: dispatchMessagesReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/:id',
    summary: 'A RERT dispatch: its request, state, response so far, message and audit',
    permission: RERT_VIEW,
    params: rertIdParams,
    reply: dispatchDetailReply,
  }),
  prediction: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/:id/prediction',
    summary: "The RERT dispatch's VPP forecast from an hour before its start, without and with it",
    permission: RERT_VIEW,
    params: rertIdParams,
    reply: predictionsReply,
  }),
  remainingCharge: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/:id/remainingcharge',
    summary: "The stored energy of the RERT dispatch's nodes over time, from telemetry",
    permission: RERT_VIEW,
    params: rertIdParams,
    reply: dispatchRemainingChargeReply,
  }),
  response: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/rert-dispatches/:id/response',
    summary: 'What the nodes delivered for the RERT dispatch, per 5 minutes and in total',
    permission: RERT_VIEW,
    params: rertIdParams,
    reply: dispatchResponseReply,
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
