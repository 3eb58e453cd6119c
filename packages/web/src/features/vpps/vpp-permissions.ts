/** Permissions of the VPP screens (spec 2 §6): viewing, editing (New VPP, Edit, Delete), and node links. */
export const VPP_VIEW = { anyOf: ['fleet.powerstations.any', 'fleet.powerstations.view'] };
export const VPP_EDIT = 'fleet.powerstations.edit';
export const NODE_VIEW = { anyOf: ['fleet.node.view', 'fleet.node.any'] };
