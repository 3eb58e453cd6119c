import type { PermissionRequirement } from '../permissions/registry.ts';

/** The organisation's OpenADR settings: its administrator's. */
export const OPENADR_PERMISSION = 'fleet.administrator' satisfies PermissionRequirement;
