import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { OUTAGE_EDIT } from '../outages/permissions.ts';
import type { PermissionRequirement } from '../permissions/registry.ts';
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

/**
 * The reads of a kind of dispatch event (a dispatch, a RERT dispatch; spec 3 §7), under its `path`:
 * its list, latest start first, and an event's detail, forecast, stored energy and measured response.
 */
export function dispatchEventReads<const P extends string, const I extends z.ZodType>(kind: {
  path: P;
  /** The event's name in the summaries ('dispatch', 'RERT dispatch'), and its plural. */
  name: string;
  plural: string;
  /** The event's id in the path. */
  params: I;
  permission: PermissionRequirement;
}) {
  const { path, name, params, permission } = kind;
  return {
    list: endpoint({
      method: 'GET',
      access: 'read',
      path,
      summary: `The organisation's ${kind.plural}, latest start first`,
      permission,
      query: dispatchListQuery,
      reply: dispatchListReply,
    }),
    detail: endpoint({
      method: 'GET',
      access: 'read',
      path: `${path}/:id`,
      summary: `A ${name}: its request, state, response so far, message and audit`,
      permission,
      params,
      reply: dispatchDetailReply,
    }),
    prediction: endpoint({
      method: 'GET',
      access: 'read',
      path: `${path}/:id/prediction`,
      summary: `The ${name}'s VPP forecast from an hour before its start, without and with the ${name}`,
      permission,
      params,
      reply: predictionsReply,
    }),
    remainingCharge: endpoint({
      method: 'GET',
      access: 'read',
      path: `${path}/:id/remainingcharge`,
      summary: `The stored energy of the ${name}'s nodes over time, from telemetry`,
      permission,
      params,
      reply: dispatchRemainingChargeReply,
    }),
    response: endpoint({
      method: 'GET',
      access: 'read',
      path: `${path}/:id/response`,
      summary: 'What the nodes delivered, measured from telemetry, per 5 minutes and in total',
      permission,
      params,
      reply: dispatchResponseReply,
    }),
  };
}

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
  ...dispatchEventReads({ path: '/api/dispatches', name: 'dispatch', plural: 'dispatches', params: dispatchIdParams, permission: DISPATCH_VIEW }),
  cost: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/dispatches/:id/cost',
    summary: 'What the dispatch costs or earns: the forecast before its start, an estimate from the delivered energy after',
    permission: DISPATCH_VIEW,
    params: dispatchIdParams,
    reply: dispatchCostReply,
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
