/** One permission the console knows: its string, the label on the user form and what it grants. */
export interface PermissionInfo {
  name: string;
  displayName: string;
  description: string;
}

/** Every permission named in the three spec documents, in the order the user form lists them. */
export const PERMISSIONS = [
  { name: 'fleet.administrator', displayName: 'Administrator', description: 'Holds every permission of the organisation.' },
  { name: 'fleet.any', displayName: 'Fleet', description: 'Node pages, sidebar items and the support page.' },
  { name: 'fleet.status.view', displayName: 'Fleet status', description: 'View the status of the fleet.' },
  { name: 'fleet.zendesk.edit', displayName: 'Support', description: 'Raise support issues from the support page.' },
  { name: 'fleet.myReposit.users', displayName: 'Users', description: 'Create, view and edit the users of the organisation.' },
  { name: 'fleet.myReposit.modules', displayName: 'Modules', description: 'Manage the modules of the organisation.' },
  { name: 'fleet.myReposit.billing', displayName: 'Invoices', description: 'View the invoices of the organisation.' },
  { name: 'customer_data.view', displayName: 'Customer data', description: 'View customer data.' },
  { name: 'customer_data.debug', displayName: 'Customer data debugging', description: 'View customer data diagnostics.' },
  { name: 'fleet.node.any', displayName: 'Nodes', description: 'Node pages.' },
  { name: 'fleet.node.view', displayName: 'View nodes', description: 'View nodes of the fleet.' },
  { name: 'fleet.node.data.view', displayName: 'Node data', description: 'View the monitoring data of nodes.' },
  { name: 'fleet.node.sga_data.view', displayName: 'SGA data', description: 'View the SGA series of nodes.' },
  { name: 'fleet.node.inverter.portal', displayName: 'Inverter web portal', description: 'Open the web portal of a node inverter.' },
  { name: 'fleet.powerstations.any', displayName: 'Virtual power plants', description: 'VPP screens.' },
  { name: 'fleet.powerstations.view', displayName: 'View VPPs', description: 'View virtual power plants.' },
  { name: 'fleet.powerstations.edit', displayName: 'Edit VPPs', description: 'Create, edit and delete virtual power plants.' },
  { name: 'fleet.powerstations.data.view', displayName: 'VPP data', description: 'VPP data in graphs and the heat map.' },
  { name: 'fleet.powerstations.gridOutages.any', displayName: 'Grid outages', description: 'View grid outages.' },
  { name: 'fleet.powerstations.gridOutages.view', displayName: 'View grid outages', description: 'View grid outages.' },
  { name: 'fleet.powerstations.gridOutages.edit', displayName: 'Edit grid outages', description: 'Create grid outages.' },
  { name: 'fleet.rert.any', displayName: 'RERT', description: 'View RERT.' },
  { name: 'fleet.rert.dispatches.any', displayName: 'RERT dispatches', description: 'View RERT dispatches.' },
  { name: 'fleet.rert.dispatches.view', displayName: 'View RERT dispatches', description: 'View RERT dispatches.' },
  { name: 'fleet.rert.dispatches.edit', displayName: 'Edit RERT dispatches', description: 'Create, reschedule and cancel RERT dispatches.' },
  { name: 'fleet.dispatches.any', displayName: 'Dispatches', description: 'See the Dispatches screen.' },
  { name: 'fleet.dispatches.view', displayName: 'View dispatches', description: 'View dispatches.' },
  { name: 'fleet.dispatches.edit', displayName: 'Edit dispatches', description: 'Create dispatches.' },
  { name: 'fleet.dispatches.powerFactor', displayName: 'Power factor', description: 'See and set the power factor of dispatches.' },
  { name: 'fleet.dispatches.marketTrader', displayName: 'Market trader', description: 'Market prices and dispatch costs.' },
  { name: 'fleet.dispatches.strategy', displayName: 'Dispatch strategy', description: 'Choose the allocation strategy of dispatches.' },
  { name: 'fleet.curtailments.any', displayName: 'Curtailments', description: 'View curtailments and default setpoints.' },
  { name: 'fleet.curtailments.view', displayName: 'View curtailments', description: 'View curtailments.' },
  { name: 'fleet.curtailments.edit', displayName: 'Edit curtailments', description: 'Create and cancel curtailments.' },
  { name: 'fleet.billing.gridcredits.view', displayName: 'Grid-credit billing', description: 'View grid-credit billing.' },
  { name: 'fleet.analysis.export.view', displayName: 'View exports', description: 'View the data export page.' },
  { name: 'fleet.analysis.export.edit', displayName: 'Create exports', description: 'Create data exports.' },
  { name: 'fleet.customerInformation.any', displayName: 'Customers', description: 'View customers.' },
  { name: 'fleet.customerInformation.view', displayName: 'View customers', description: 'View customers.' },
  { name: 'fleet.customerInformation.edit', displayName: 'Edit customers', description: 'Edit customers.' },
  { name: 'fleet.customerInformation.plans.any', displayName: 'Plans', description: 'View retail plans.' },
  { name: 'fleet.customerInformation.plans.edit', displayName: 'Edit plans', description: 'Create and edit retail plans.' },
  { name: 'fleet.customerInformation.contracts.any', displayName: 'Contracts', description: 'View customer contracts.' },
  { name: 'fleet.kitDesigner', displayName: 'Kit designer', description: 'Design and order kits.' },
] as const satisfies readonly PermissionInfo[];

/** A permission the console knows, by its registry spelling: a misspelt name fails the typecheck. */
export type PermissionName = (typeof PERMISSIONS)[number]['name'];

export const ADMINISTRATOR: PermissionName = 'fleet.administrator';

/**
 * Read-only, for API key scopes: the registry's view permissions, those whose name ends in `.view`.
 * They open the screens and calls that show data (and the area gates, `X.any`, of their areas) and
 * nothing that changes it; a permission named otherwise (edit, any, administrator, a feature such as
 * fleet.kitDesigner) is never read-only, so a new permission is read-only only when it says so.
 */
export const isReadOnlyPermission = (name: string): boolean => normalizePermission(name).endsWith('.view');

/** The read-only permissions, in registry order: the default scopes of a new API key. */
export const READ_ONLY_PERMISSIONS: readonly PermissionName[] = PERMISSIONS.map((p) => p.name).filter(isReadOnlyPermission);

/**
 * One reading for the two spellings the spec uses (grid_outages and gridOutages, my_reposit and
 * myReposit…): snake_case segments are compared in camelCase.
 */
export function normalizePermission(permission: string): string {
  return permission.trim().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Permissions a held permission opens beyond its own name: spec 2 §6 lets fleet.any open node pages
 * (fleet.node.any and fleet.node.view), but not node data.
 */
const IMPLIED: Readonly<Record<string, readonly string[]>> = {
  'fleet.any': ['fleet.node.any', 'fleet.node.view'],
};

function grants(held: string, required: string): boolean {
  if (held === required) return true;
  if (IMPLIED[held]?.includes(required)) return true;
  // A held permission ending in a wildcard grants everything with that prefix.
  if (held.endsWith('*') && required.startsWith(held.slice(0, -1))) return true;
  // A required `X.any` is the gate of an area: any permission inside that area opens it.
  if (required.endsWith('.any')) return held.startsWith(required.slice(0, -3));
  return false;
}

/**
 * Whether the held permissions satisfy one required permission. fleet.administrator grants every
 * permission: the organisation's administrator can do anything the console offers.
 */
export function hasPermission(held: readonly string[], required: string): boolean {
  const need = normalizePermission(required);
  return held.some((h) => {
    const n = normalizePermission(h);
    return n === ADMINISTRATOR || grants(n, need);
  });
}

/**
 * Whether a user holding `held` may grant (or take away) `permission`: they hold it themselves, by
 * name, by a wildcard, by a permission that implies it, or as administrator. Unlike access checks,
 * an area gate (`X.any`) is not satisfied by any permission inside the area: a users manager who
 * holds fleet.myReposit.users may open screens gated by fleet.any, but may not grant fleet.any.
 */
export function canGrant(held: readonly string[], permission: string): boolean {
  const need = normalizePermission(permission);
  return held.some((h) => {
    const n = normalizePermission(h);
    if (n === ADMINISTRATOR || n === need || IMPLIED[n]?.includes(need)) return true;
    return n.endsWith('*') && need.startsWith(n.slice(0, -1));
  });
}

/** True when at least one of the required permissions is held (an empty list is always true). */
export function hasAnyPermission(held: readonly string[], required: readonly string[]): boolean {
  return required.length === 0 || required.some((r) => hasPermission(held, r));
}

/** True when every required permission is held. */
export function hasAllPermissions(held: readonly string[], required: readonly string[]): boolean {
  return required.every((r) => hasPermission(held, r));
}

/** A permission requirement: one name, any of a list, or all of a list. */
export type PermissionRequirement = PermissionName | { anyOf: readonly PermissionName[] } | { allOf: readonly PermissionName[] };

/** Checks a requirement in any of its three forms. */
export function satisfies(held: readonly string[], requirement: PermissionRequirement): boolean {
  if (typeof requirement === 'string') return hasPermission(held, requirement);
  if ('anyOf' in requirement) return hasAnyPermission(held, requirement.anyOf);
  return hasAllPermissions(held, requirement.allOf);
}

/**
 * Whether an API key's scopes allow an operation that changes something: only its write scopes (those
 * that are not read-only) count, so a key of view scopes never writes, although the view
 * permissions open their areas' gates (`X.any`) for reading. An operation that needs no permission
 * (marking one's notifications read, saving one's dashboard) still needs one write scope.
 */
export function writeAllowed(scopes: readonly string[], requirement: PermissionRequirement | null): boolean {
  const writing = scopes.filter((s) => !isReadOnlyPermission(s));
  return requirement === null ? writing.length > 0 : satisfies(writing, requirement);
}

/** Whether a name is a known permission (either spelling). */
export function isKnownPermission(name: string): boolean {
  return registryName(name) !== undefined;
}

/** The registry's spelling of a known permission given in either spelling; undefined when unknown. */
export function registryName(name: string): PermissionName | undefined {
  const n = normalizePermission(name);
  return PERMISSIONS.find((p) => normalizePermission(p.name) === n)?.name;
}
