import type { PermissionRequirement } from '../permissions/registry.ts';

/** The kit designer: its page, its options, the design check and the order e-mail (spec 2 §6's fleet.kit_designer; the registry spells it fleet.kitDesigner and accepts both). */
export const KIT_DESIGNER_PERMISSION: PermissionRequirement = 'fleet.kitDesigner';
