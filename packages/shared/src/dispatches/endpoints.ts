import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { OUTAGE_EDIT } from '../outages/permissions.ts';
import { vppIdParams } from '../vpps/endpoints.ts';
import { DISPATCH_EDIT, DISPATCH_VIEW } from './permissions.ts';
import {
  constraintsQuery,
  constraintsReply,
  createDispatchBody,
  createDispatchReply,
  dispatchCostReply,
  dispatchDetailReply,
  dispatchListQuery,
  dispatchListReply,
  dispatchMessagesReply,
  dispatchRemainingChargeReply,
  dispatchResponseReply,
  predictionsQuery,
  predictionsReply,
} from './schemas.ts';

const dispatchIdParams = z.object({ id: recordId('dispatch', 'The dispatch id') });

/** Dispatches (spec 3 §7): the New Dispatch modal's constraints and predictions, and the dispatches themselves. */
export const dispatchEndpoints = defineEndpoints('dispatches', {
  constraints: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/constraints',
    summary: "What the VPP's batteries can charge and discharge for a duration, from their state now",
    permission: DISPATCH_EDIT,
    params: vppIdParams,
    query: constraintsQuery,
    reply: constraintsReply,
  }),
  predictions: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/predictions',
    summary: "The VPP's expected day, and the same with a dispatch applied through the engine's allocation",
    permission: DISPATCH_EDIT,
    params: vppIdParams,
    query: predictionsQuery,
    reply: predictionsReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/dispatch',
    summary: 'Dispatch a VPP: the request is checked against its constraints and stored with its allocation',
    permission: DISPATCH_EDIT,
    body: createDispatchBody,
    reply: createDispatchReply,
  }),
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches',
    summary: "The organisation's dispatches, latest start first",
    permission: DISPATCH_VIEW,
    query: dispatchListQuery,
    reply: dispatchListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id',
    summary: 'A dispatch: its request, state, response so far, message and audit',
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchDetailReply,
  }),
  prediction: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id/prediction',
    summary: "The dispatch's VPP forecast from an hour before its start, without and with the dispatch",
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: predictionsReply,
  }),
  remainingCharge: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id/remainingcharge',
    summary: "The stored energy of the dispatch's nodes over time, from telemetry",
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchRemainingChargeReply,
  }),
  cost: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id/cost',
    summary: 'What the dispatch costs or earns: the forecast before its start, an estimate from the delivered energy after',
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchCostReply,
  }),
  response: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id/response',
    summary: 'What the nodes delivered, measured from telemetry, per 5 minutes and in total',
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchResponseReply,
  }),
  messages: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dispatch/messages',
    summary: 'The customer messages of earlier dispatches, newest first',
    permission: DISPATCH_EDIT,
    reply: dispatchMessagesReply,
  }),
  cancel: endpoint({
    method: 'POST',
    access: 'write',
    path: '/dispatch/:id/cancel',
    summary: "Cancel a dispatch that has not ended, or an upcoming or in-progress grid outage: its nodes' orders are withdrawn",
    permission: { anyOf: [DISPATCH_EDIT, OUTAGE_EDIT] },
    params: dispatchIdParams,
    reply: statusReply,
  }),
});
