import type { PermissionRequirement } from '../permissions/registry.ts';

/** Seeing the Data Export page and its jobs (spec 2 §6); editing also lets one see them. */
export const EXPORT_VIEW = { anyOf: ['fleet.analysis.export.view', 'fleet.analysis.export.edit'] } as const satisfies PermissionRequirement;
/** Creating and cancelling exports; a VPP operational export needs it (the VPP tile). */
export const EXPORT_EDIT = 'fleet.analysis.export.edit' satisfies PermissionRequirement;
