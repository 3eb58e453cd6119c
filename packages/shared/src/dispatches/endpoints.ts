import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { vppIdParams } from '../vpps/endpoints.ts';
import { DISPATCH_EDIT } from './permissions.ts';
import { constraintsQuery, constraintsReply, predictionsQuery, predictionsReply } from './schemas.ts';

/** Dispatches (spec 3 §7): so far the constraints and predictions the New Dispatch modal asks of a VPP. */
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
});
