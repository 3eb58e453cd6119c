import type { PermissionRequirement } from '../permissions/registry.ts';

/** Constraints and predictions serve the New Dispatch modal: they are part of creating a dispatch (spec 3 §2.3, §6). */
export const DISPATCH_EDIT = 'fleet.dispatches.edit' satisfies PermissionRequirement;
/** Seeing dispatches is the area's gate (a `.view` holder passes it too). */
export const DISPATCH_VIEW = 'fleet.dispatches.any' satisfies PermissionRequirement;
/** Choosing the allocation strategy of a new dispatch. */
export const DISPATCH_STRATEGY = 'fleet.dispatches.strategy' satisfies PermissionRequirement;
/** Setting a power factor below 1. */
export const DISPATCH_POWER_FACTOR = 'fleet.dispatches.powerFactor' satisfies PermissionRequirement;
