import type { PermissionRequirement } from '../permissions/registry.ts';

/** Permissions of the VPP screens and calls (spec 2 §6): viewing, editing (New VPP, Edit, Delete), data, node links. */
export const VPP_VIEW = { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view'] } as const satisfies PermissionRequirement;
export const VPP_EDIT = 'fleet.powerstations.edit' satisfies PermissionRequirement;
export const VPP_DATA = 'fleet.powerstations.data.view' satisfies PermissionRequirement;
export const NODE_VIEW = { anyOf: ['fleet.node.view', 'fleet.node.any'] } as const satisfies PermissionRequirement;
