import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { recordId } from '../api/inputs.ts';
import { OUTAGE_EDIT, OUTAGE_VIEW } from './permissions.ts';
import { createOutageBody, createOutageReply, nodeAppTokenReply, outageDetailReply, outageListQuery, outageListReply, outageResponseReply } from './schemas.ts';

const outageIdParams = z.object({ id: recordId('grid-outage', 'The grid outage id') });
const nodeIdParams = z.object({ id: recordId('node', 'The node id') });

/**
 * Grid outages (spec 3 §7): preparation of a VPP's batteries for a warned grid outage. Cancelling
 * goes through `POST /dispatch/{id}/cancel`.
 */
export const outageEndpoints = defineEndpoints('grid-outages', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/grid-outages',
    summary: "The organisation's grid outages, latest start first (then the longest)",
    permission: OUTAGE_VIEW,
    query: outageListQuery,
    reply: outageListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/grid-outage/:id',
    summary: 'A grid outage: its window, reason, VPP, state and creator',
    permission: OUTAGE_VIEW,
    params: outageIdParams,
    reply: outageDetailReply,
  }),
  response: endpoint({
    method: 'GET',
    access: 'read',
    path: '/grid-outage/:id/response',
    summary: 'How many nodes took the preparation, and those whose customers opted out',
    permission: OUTAGE_VIEW,
    params: outageIdParams,
    reply: outageResponseReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/grid-outage',
    summary: 'Prepare a VPP for a grid outage: its batteries charge to full before the start and back the homes up through it',
    permission: OUTAGE_EDIT,
    body: createOutageBody,
    reply: createOutageReply,
  }),
  appToken: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/nodes/:id/customer-app-token',
    summary: "Pair a node's customer app: a new token for it (the previous one stops working); only its hash is kept",
    permission: OUTAGE_EDIT,
    params: nodeIdParams,
    reply: nodeAppTokenReply,
  }),
});
