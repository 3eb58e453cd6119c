import type { PermissionRequirement } from '../permissions/registry.ts';

/** Seeing grid outages (spec 3 §6): the list, the detail and the response. */
export const OUTAGE_VIEW = 'fleet.powerstations.gridOutages.any' satisfies PermissionRequirement;
/** Creating and cancelling grid outages, and pairing a node's customer app. */
export const OUTAGE_EDIT = 'fleet.powerstations.gridOutages.edit' satisfies PermissionRequirement;
