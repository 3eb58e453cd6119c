import type { PermissionRequirement } from '../permissions/registry.ts';

/** Constraints and predictions serve the New Dispatch modal: they are part of creating a dispatch (spec 3 §2.3, §6). */
export const DISPATCH_EDIT = 'fleet.dispatches.edit' satisfies PermissionRequirement;
