import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { recordId } from '../api/inputs.ts';

export const portalTokenQuery = z.object({
  deployment: recordId('node', 'deployment'),
  inverter: z.string({ error: 'inverter is required.' }).min(1, 'inverter is required.'),
});
export const portalTokenReply = z.object({ status: z.literal('OK'), message: z.string(), inverterPortalToken: z.string(), portalUrl: z.string() });

/** An inverter's web portal: a single-use token, and the simulated vendor portal that takes it. */
export const portalEndpoints = defineEndpoints('nodes', {
  token: endpoint({
    method: 'GET',
    access: 'read',
    path: '/auth/portal_token',
    summary: "A single-use token for an inverter's web portal",
    permission: 'fleet.node.inverter.portal',
    query: portalTokenQuery,
    reply: portalTokenReply,
  }),
  page: endpoint({
    method: 'GET',
    access: 'read',
    path: '/inverter-portal',
    summary: 'The simulated vendor portal: accepts a token once and shows the inverter’s live readings',
    auth: 'public',
    permission: null,
    hidden: true,
    query: z.object({ token: z.string().max(4096).default(''), auth: z.string().max(4096).optional() }),
  }),
});
