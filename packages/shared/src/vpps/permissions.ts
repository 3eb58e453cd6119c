import { EXPORT_VIEW } from '../exports/permissions.ts';
import type { PermissionRequirement } from '../permissions/registry.ts';

/** Permissions of the VPP screens and calls (spec 2 §6): viewing, editing (New VPP, Edit, Delete), data, node links. */
export const VPP_VIEW = { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view'] } as const satisfies PermissionRequirement;
export const VPP_EDIT = 'fleet.powerstations.edit' satisfies PermissionRequirement;
export const VPP_DATA = 'fleet.powerstations.data.view' satisfies PermissionRequirement;
export const NODE_VIEW = { anyOf: ['fleet.node.view', 'fleet.node.any'] } as const satisfies PermissionRequirement;
/**
 * Choosing a VPP for an event or an export (spec 3 §7 'GET /api/powerstations (VPP choices)'): whoever
 * sees VPPs, whoever may create a dispatch, RERT dispatch or curtailment on one, and whoever may export
 * (the export forms' VPP selector, spec 2 §2), without seeing the VPP screens.
 */
export const VPP_CHOICE = {
  anyOf: [
    'fleet.powerstations.any',
    'fleet.powerstations.view',
    'fleet.dispatches.edit',
    'fleet.rert.dispatches.edit',
    'fleet.curtailments.edit',
    ...EXPORT_VIEW.anyOf,
  ],
} as const satisfies PermissionRequirement;
