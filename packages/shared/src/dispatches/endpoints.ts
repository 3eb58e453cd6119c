import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { vppIdParams } from '../vpps/endpoints.ts';
import { DISPATCH_EDIT, DISPATCH_VIEW } from './permissions.ts';
import {
  constraintsQuery,
  constraintsReply,
  createDispatchBody,
  createDispatchReply,
  dispatchDetailReply,
  dispatchListQuery,
  dispatchListReply,
  dispatchMessagesReply,
  predictionsQuery,
  predictionsReply,
} from './schemas.ts';

const dispatchIdParams = z.object({ id: recordId('dispatch', 'The dispatch id') });

/** Dispatches (spec 3 §7): the New Dispatch modal's constraints and predictions, and the dispatches themselves. */
export const dispatchEndpoints = defineEndpoints('dispatches', {
  constraints: endpoint({
    method: 'GET',
    path: '/api/powerstations/:id/constraints',
    summary: "What the VPP's batteries can charge and discharge for a duration, from their state now",
    permission: DISPATCH_EDIT,
    params: vppIdParams,
    query: constraintsQuery,
    reply: constraintsReply,
  }),
  predictions: endpoint({
    method: 'GET',
    path: '/api/powerstations/:id/predictions',
    summary: "The VPP's expected day, and the same with a dispatch applied through the engine's allocation",
    permission: DISPATCH_EDIT,
    params: vppIdParams,
    query: predictionsQuery,
    reply: predictionsReply,
  }),
  create: endpoint({
    method: 'POST',
    path: '/dispatch',
    summary: 'Dispatch a VPP: the request is checked against its constraints and stored with its allocation',
    permission: DISPATCH_EDIT,
    body: createDispatchBody,
    reply: createDispatchReply,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/dispatches',
    summary: "The organisation's dispatches, latest start first",
    permission: DISPATCH_VIEW,
    query: dispatchListQuery,
    reply: dispatchListReply,
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/dispatches/:id',
    summary: 'A dispatch: its request, state, response so far, message and audit',
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchDetailReply,
  }),
  messages: endpoint({
    method: 'GET',
    path: '/dispatch/messages',
    summary: 'The customer messages of earlier dispatches, newest first',
    permission: DISPATCH_EDIT,
    reply: dispatchMessagesReply,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/dispatch/:id/cancel',
    summary: "Cancel a dispatch that has not ended: its nodes' orders are withdrawn",
    permission: DISPATCH_EDIT,
    params: dispatchIdParams,
    reply: statusReply,
  }),
});
