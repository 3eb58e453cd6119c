import type { PermissionRequirement } from '../permissions/registry.ts';

/** Seeing RERT dispatches (spec 3 §6): either permission. */
export const RERT_VIEW = { anyOf: ['fleet.rert.any', 'fleet.rert.dispatches.any'] } as const satisfies PermissionRequirement;
/** Creating, rescheduling and cancelling RERT dispatches. */
export const RERT_EDIT = 'fleet.rert.dispatches.edit' satisfies PermissionRequirement;
