import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { recordId } from '../api/inputs.ts';
import { PLAN_EDIT, PLAN_VIEW } from '../customers/permissions.ts';
import { operationalNetworksReply, planListQuery, planListReply, planReply, savePlanBody, savePlanReply } from './schemas.ts';

/** A plan's uid in a path (spec 3 §7 names it {id} to read and {uid} to update: the same number). */
const planIdParams = z.object({ id: recordId('plan', 'The plan uid') });
/** A plan code in a path: the web's routes name plans by code (URL-encoded, so spaces and slashes travel). */
const planCodeParams = z.object({
  planCode: z.string().min(1, 'The plan code must not be empty.').max(100, 'The plan code must be at most 100 characters.'),
});

/**
 * Plans (tariffs) of spec 3 §7. Saving answers 400 with `data.errors` (messages by field path) and
 * `data.non_field_errors` when the form's rules refuse the plan.
 */
export const planEndpoints = defineEndpoints('plans', {
  networks: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/plan/operational-networks',
    summary: 'The distribution networks (DNSPs) a plan can be for',
    permission: PLAN_VIEW,
    reply: operationalNetworksReply,
  }),
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/plan',
    summary: "The organisation's plans with their customer counts, filtered and sorted (default name ascending)",
    permission: PLAN_VIEW,
    query: planListQuery,
    reply: planListReply,
  }),
  detail: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/plan/:id',
    summary: 'A plan with its rates, periods, demand rates and versions',
    permission: PLAN_VIEW,
    params: planIdParams,
    reply: planReply,
  }),
  byCode: endpoint({
    method: 'GET',
    access: 'read',
    path: '/contracts/plan/code/:planCode',
    summary: 'A plan by its code (the web routes name plans by code)',
    permission: PLAN_VIEW,
    params: planCodeParams,
    reply: planReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/contracts/plan',
    summary: 'Create a plan: its first version starts on startDate',
    permission: PLAN_EDIT,
    body: savePlanBody,
    reply: savePlanReply,
  }),
  update: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/contracts/plan/:id',
    summary:
      'Edit a plan. A price change from a later startDate adds a version (the earlier one keeps applying before it); one from the latest version’s own date corrects it',
    permission: PLAN_EDIT,
    params: planIdParams,
    body: savePlanBody,
    reply: savePlanReply,
  }),
});
