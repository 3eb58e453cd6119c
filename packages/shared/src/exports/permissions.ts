import type { PermissionRequirement } from '../permissions/registry.ts';

/**
 * Seeing the Data Export page and its jobs, and exporting individual nodes and customers (spec 2 §6);
 * editing also lets one see them.
 */
export const EXPORT_VIEW = { anyOf: ['fleet.analysis.export.view', 'fleet.analysis.export.edit'] } as const satisfies PermissionRequirement;
/** A VPP operational export (the VPP tile, spec 2 §2) needs it on top of EXPORT_VIEW. */
export const EXPORT_EDIT = 'fleet.analysis.export.edit' satisfies PermissionRequirement;
