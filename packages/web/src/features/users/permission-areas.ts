/** The areas the user form groups permissions by, in the order the sidebar shows them. */
export const PERMISSION_AREAS = ['Account', 'Fleet', 'Virtual Power Plants', 'Dispatch', 'Customers', 'Billing', 'Analysis', 'Ordering', 'Support'] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];

/** The first rule whose prefix a permission name starts with names its area. */
const RULES: [prefix: string, area: PermissionArea][] = [
  ['fleet.powerstations.gridOutages', 'Dispatch'],
  ['fleet.myReposit.billing', 'Billing'],
  ['fleet.administrator', 'Account'],
  ['fleet.myReposit', 'Account'],
  ['fleet.powerstations', 'Virtual Power Plants'],
  ['fleet.dispatches', 'Dispatch'],
  ['fleet.rert', 'Dispatch'],
  ['fleet.curtailments', 'Dispatch'],
  ['fleet.customerInformation', 'Customers'],
  ['customer_data', 'Customers'],
  ['fleet.billing', 'Billing'],
  ['fleet.analysis', 'Analysis'],
  ['fleet.kitDesigner', 'Ordering'],
  ['fleet.zendesk', 'Support'],
  ['fleet', 'Fleet'],
];

/** The area a permission belongs to (by its name, either spelling). */
export function permissionArea(name: string): PermissionArea {
  const n = name.replace(/:/g, '.');
  return RULES.find(([prefix]) => n === prefix || n.startsWith(`${prefix}.`))?.[1] ?? 'Fleet';
}

/** Permissions grouped by area, in the areas' order, each group keeping the permissions' order; empty areas left out. */
export function groupByArea<P extends { name: string }>(permissions: readonly P[]): { area: PermissionArea; permissions: P[] }[] {
  return PERMISSION_AREAS.map((area) => ({ area, permissions: permissions.filter((p) => permissionArea(p.name) === area) })).filter(
    (g) => g.permissions.length > 0,
  );
}
