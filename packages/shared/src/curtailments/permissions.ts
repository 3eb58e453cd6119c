import type { PermissionRequirement } from '../permissions/registry.ts';

/** Seeing curtailments and default setpoints (spec 3 §6): the Feed-In Management screens, the detail and the Default Setpoints tabs. */
export const CURTAILMENT_VIEW = 'fleet.curtailments.any' satisfies PermissionRequirement;
/** Creating and cancelling curtailments, creating default setpoints; the New Curtailment modal's constraint and prediction. */
export const CURTAILMENT_EDIT = 'fleet.curtailments.edit' satisfies PermissionRequirement;
