import type { PermissionRequirement } from '../permissions/registry.ts';

/** The support page: node pages' users (spec 2 §2) or the support area's own permission (spec 2 §6). */
export const SUPPORT_PERMISSION: PermissionRequirement = { anyOf: ['fleet.node.any', 'fleet.zendesk.edit'] };
