import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { recordId } from '../api/inputs.ts';
import { vppIdParams } from '../vpps/endpoints.ts';
import { CURTAILMENT_EDIT, CURTAILMENT_VIEW } from './permissions.ts';
import {
  createCurtailmentBody,
  createCurtailmentReply,
  createSetpointBody,
  createSetpointReply,
  curtailmentConstraintQuery,
  curtailmentConstraintReply,
  curtailmentDetailReply,
  curtailmentListQuery,
  curtailmentListReply,
  curtailmentNodesQuery,
  curtailmentNodesReply,
  curtailmentPredictionQuery,
  curtailmentPredictionReply,
  curtailmentResponseReply,
  setpointListQuery,
  setpointListReply,
} from './schemas.ts';

const curtailmentIdParams = z.object({ id: recordId('curtailment', 'The curtailment id') });

/** Curtailments and default setpoints (spec 3 §7 "Curtailments and setpoints"): limits on a VPP's export or solar. */
export const curtailmentEndpoints = defineEndpoints('curtailments', {
  list: endpoint({
    method: 'GET',
    path: '/api/curtailments',
    summary: "The organisation's curtailments, latest start first",
    permission: CURTAILMENT_VIEW,
    query: curtailmentListQuery,
    reply: curtailmentListReply,
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/curtailments/:id',
    summary: 'A curtailment: its request, state, response now and audit',
    permission: CURTAILMENT_VIEW,
    params: curtailmentIdParams,
    reply: curtailmentDetailReply,
  }),
  response: endpoint({
    method: 'GET',
    path: '/api/curtailments/:id/response',
    summary: "The curtailment's nodes' solar and meter power measured from telemetry per 5 minutes, and how many accepted their limit",
    permission: CURTAILMENT_VIEW,
    params: curtailmentIdParams,
    reply: curtailmentResponseReply,
  }),
  prediction: endpoint({
    method: 'GET',
    path: '/api/curtailments/:id/prediction',
    summary: "The curtailment's VPP solar and meter power expected with no curtailment, from an hour before its start to an hour after its end",
    permission: CURTAILMENT_VIEW,
    params: curtailmentIdParams,
    reply: curtailmentPredictionReply,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/curtailments',
    summary: 'Curtail a VPP: hold its export at the meters (grid, net) or its solar generation (solar, gross) to a limit over a window',
    permission: CURTAILMENT_EDIT,
    body: createCurtailmentBody,
    reply: createCurtailmentReply,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/curtailments/:id/cancel',
    summary: "Cancel an upcoming or in-progress curtailment: its nodes' limits are withdrawn",
    permission: CURTAILMENT_EDIT,
    params: curtailmentIdParams,
    reply: statusReply,
  }),
  setpoints: endpoint({
    method: 'GET',
    path: '/api/curtailments/setpoints',
    summary: "The organisation's default setpoints, newest first (ACTIVE first within the same creation time)",
    permission: CURTAILMENT_VIEW,
    query: setpointListQuery,
    reply: setpointListReply,
  }),
  vppSetpoints: endpoint({
    method: 'GET',
    path: '/api/curtailments/setpoints/powerstation/:id',
    summary: "A VPP's default setpoints, newest first: the newest is ACTIVE",
    permission: CURTAILMENT_VIEW,
    params: vppIdParams,
    query: setpointListQuery,
    reply: setpointListReply,
  }),
  createSetpoint: endpoint({
    method: 'POST',
    path: '/api/curtailments/setpoint',
    summary: "Set a VPP's default setpoint: its standing net and gross limits, reached over the ramp duration",
    permission: CURTAILMENT_EDIT,
    body: createSetpointBody,
    reply: createSetpointReply,
  }),
  constraint: endpoint({
    method: 'GET',
    path: '/api/constraints/curtailments',
    summary: 'The minimum export the VPP can be held to (negative kW), or 0 when it has no curtailable node',
    permission: CURTAILMENT_EDIT,
    query: curtailmentConstraintQuery,
    reply: curtailmentConstraintReply,
  }),
  newPrediction: endpoint({
    method: 'GET',
    path: '/curtailment/prediction',
    summary: "The VPP's solar and meter power expected over a window with no curtailment, from the weather forecast",
    permission: CURTAILMENT_EDIT,
    query: curtailmentPredictionQuery,
    reply: curtailmentPredictionReply,
  }),
  nodes: endpoint({
    method: 'GET',
    path: '/curtailment/:id/nodes',
    summary: "The curtailment's nodes, and whether each accepted its limit",
    permission: CURTAILMENT_VIEW,
    params: curtailmentIdParams,
    query: curtailmentNodesQuery,
    reply: curtailmentNodesReply,
  }),
});
