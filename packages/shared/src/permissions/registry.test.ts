import { describe, expect, it } from 'vitest';
import {
  canGrant,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  isKnownPermission,
  isReadOnlyPermission,
  READ_ONLY_PERMISSIONS,
  registryName,
  satisfies,
  writeAllowed,
} from './registry.ts';

describe('hasPermission', () => {
  it('grants a permission that is held exactly', () => {
    expect(hasPermission(['fleet.node.view'], 'fleet.node.view')).toBe(true);
  });

  it('refuses a permission that is not held', () => {
    expect(hasPermission(['fleet.node.view'], 'fleet.dispatches.edit')).toBe(false);
    expect(hasPermission(['fleet.node.view'], 'fleet.node.data.view')).toBe(false);
    expect(hasPermission([], 'fleet.node.view')).toBe(false);
  });

  it('lets a held wildcard grant everything under its prefix, and nothing outside it', () => {
    expect(hasPermission(['fleet.node.*'], 'fleet.node.view')).toBe(true);
    expect(hasPermission(['fleet.node.*'], 'fleet.node.sga_data.view')).toBe(true);
    expect(hasPermission(['fleet.*'], 'fleet.dispatches.edit')).toBe(true);
    expect(hasPermission(['fleet.node.*'], 'fleet.powerstations.view')).toBe(false);
  });

  it('opens a required X.any with any permission held inside that area', () => {
    expect(hasPermission(['fleet.node.data.view'], 'fleet.node.any')).toBe(true);
    expect(hasPermission(['fleet.powerstations.gridOutages.edit'], 'fleet.powerstations.any')).toBe(true);
    expect(hasPermission(['fleet.rert.dispatches.view'], 'fleet.rert.any')).toBe(true);
    expect(hasPermission(['fleet.status.view'], 'fleet.any')).toBe(true);
    expect(hasPermission(['fleet.powerstations.view'], 'fleet.node.any')).toBe(false);
    expect(hasPermission(['customer_data.view'], 'fleet.any')).toBe(false);
  });

  it('opens a required X.any with a held wildcard inside that area', () => {
    expect(hasPermission(['fleet.node.*'], 'fleet.node.any')).toBe(true);
    expect(hasPermission(['fleet.node.*'], 'fleet.any')).toBe(true);
    expect(hasPermission(['fleet.node.*'], 'fleet.dispatches.any')).toBe(false);
  });

  it('lets a held fleet.any open node pages (fleet.node.any and fleet.node.view), but not node data', () => {
    expect(hasPermission(['fleet.any'], 'fleet.node.any')).toBe(true);
    expect(hasPermission(['fleet.any'], 'fleet.node.view')).toBe(true);
    expect(satisfies(['fleet.any'], { anyOf: ['fleet.node.any', 'fleet.powerstations.any'] })).toBe(true);
    expect(hasPermission(['fleet.any'], 'fleet.node.data.view')).toBe(false);
    expect(hasPermission(['fleet.any'], 'fleet.node.sga_data.view')).toBe(false);
    expect(hasPermission(['fleet.any'], 'fleet.node.inverter.portal')).toBe(false);
    expect(hasPermission(['fleet.any'], 'fleet.powerstations.any')).toBe(false);
    expect(hasPermission(['fleet.any'], 'fleet.dispatches.view')).toBe(false);
  });

  it('lets fleet.administrator grant every permission', () => {
    for (const required of ['fleet.node.view', 'fleet.kitDesigner', 'customer_data.debug', 'fleet.myReposit.users', 'fleet.any']) {
      expect(hasPermission(['fleet.administrator'], required)).toBe(true);
    }
  });

  it.each([
    ['fleet.powerstations.grid_outages.view', 'fleet.powerstations.gridOutages.view'],
    ['fleet.customer_information.edit', 'fleet.customerInformation.edit'],
    ['fleet.my_reposit.users', 'fleet.myReposit.users'],
    ['fleet.kit_designer', 'fleet.kitDesigner'],
  ])('treats %s and %s as the same permission, either way round', (snake, camel) => {
    expect(hasPermission([snake], camel)).toBe(true);
    expect(hasPermission([camel], snake)).toBe(true);
  });

  it('applies both spellings to wildcards and areas too', () => {
    expect(hasPermission(['fleet.customer_information.*'], 'fleet.customerInformation.plans.edit')).toBe(true);
    expect(hasPermission(['fleet.powerstations.gridOutages.view'], 'fleet.powerstations.grid_outages.any')).toBe(true);
    expect(hasPermission(['fleet.my_reposit.billing'], 'fleet.myReposit.users')).toBe(false);
  });
});

describe('lists of permissions', () => {
  const held = ['fleet.node.view', 'fleet.dispatches.view'];

  it('hasAnyPermission needs one of the list', () => {
    expect(hasAnyPermission(held, ['fleet.curtailments.view', 'fleet.dispatches.view'])).toBe(true);
    expect(hasAnyPermission(held, ['fleet.curtailments.view', 'fleet.dispatches.edit'])).toBe(false);
  });

  it('hasAllPermissions needs every one of the list', () => {
    expect(hasAllPermissions(held, ['fleet.node.view', 'fleet.dispatches.view'])).toBe(true);
    expect(hasAllPermissions(held, ['fleet.node.view', 'fleet.dispatches.edit'])).toBe(false);
  });

  it('satisfies reads a name, {anyOf} and {allOf}', () => {
    expect(satisfies(held, 'fleet.node.view')).toBe(true);
    expect(satisfies(held, 'fleet.node.data.view')).toBe(false);
    expect(satisfies(held, { anyOf: ['fleet.rert.any', 'fleet.node.any'] })).toBe(true);
    expect(satisfies(held, { anyOf: ['fleet.rert.any', 'fleet.curtailments.any'] })).toBe(false);
    expect(satisfies(held, { allOf: ['fleet.node.any', 'fleet.dispatches.any'] })).toBe(true);
    expect(satisfies(held, { allOf: ['fleet.node.any', 'fleet.dispatches.edit'] })).toBe(false);
  });
});

describe('isKnownPermission', () => {
  it('knows the spec permissions in either spelling and nothing else', () => {
    expect(isKnownPermission('fleet.powerstations.gridOutages.view')).toBe(true);
    expect(isKnownPermission('fleet.powerstations.grid_outages.view')).toBe(true);
    expect(isKnownPermission('fleet.my_reposit.users')).toBe(true);
    expect(isKnownPermission('fleet.teleport')).toBe(false);
  });
});

describe('canGrant', () => {
  it('grants what is held by name, wildcard, implication or administration, but not through an area gate', () => {
    expect(canGrant(['fleet.myReposit.users'], 'fleet.myReposit.users')).toBe(true);
    expect(canGrant(['fleet.my_reposit.users'], 'fleet.myReposit.users')).toBe(true);
    expect(canGrant(['fleet.myReposit.users'], 'fleet.any')).toBe(false);
    expect(hasPermission(['fleet.myReposit.users'], 'fleet.any')).toBe(true);
    expect(canGrant(['fleet.any'], 'fleet.node.any')).toBe(true);
    expect(canGrant(['fleet.any'], 'fleet.node.data.view')).toBe(false);
    expect(canGrant(['fleet.dispatches.*'], 'fleet.dispatches.edit')).toBe(true);
    expect(canGrant(['fleet.dispatches.*'], 'fleet.curtailments.edit')).toBe(false);
    expect(canGrant(['fleet.administrator'], 'fleet.kitDesigner')).toBe(true);
  });
});

describe('read-only permissions (the default scopes of an API key)', () => {
  it('are the view permissions of the registry and nothing that edits, gates an area or administers', () => {
    expect(READ_ONLY_PERMISSIONS).toContain('fleet.node.view');
    expect(READ_ONLY_PERMISSIONS).toContain('customer_data.view');
    for (const p of ['fleet.administrator', 'fleet.powerstations.edit', 'fleet.node.any', 'fleet.kitDesigner', 'fleet.myReposit.users'])
      expect(READ_ONLY_PERMISSIONS).not.toContain(p);
    expect(READ_ONLY_PERMISSIONS.every((p) => isReadOnlyPermission(p) && isKnownPermission(p))).toBe(true);
    expect(isReadOnlyPermission('fleet.customer_information.view')).toBe(true);
  });

  it('name a permission in the registry spelling whichever spelling is given', () => {
    expect(registryName('fleet.my_reposit.users')).toBe('fleet.myReposit.users');
    expect(registryName(' fleet.node.view ')).toBe('fleet.node.view');
    expect(registryName('fleet.everything')).toBeUndefined();
  });
});

describe('writeAllowed (the write rule of API keys)', () => {
  it('counts only write scopes: view scopes open an area gate for reading, never for a change', () => {
    expect(hasPermission(['fleet.node.view'], 'fleet.node.any')).toBe(true);
    expect(writeAllowed(['fleet.node.view'], 'fleet.node.any')).toBe(false);
    expect(writeAllowed(['fleet.node.view', 'fleet.node.any'], 'fleet.node.any')).toBe(true);
    expect(writeAllowed(['fleet.any'], 'fleet.node.any')).toBe(true);
    expect(writeAllowed(['fleet.node.view', 'fleet.dispatches.edit'], 'fleet.node.any')).toBe(false);
    expect(writeAllowed(['fleet.dispatches.edit'], { anyOf: ['fleet.dispatches.edit', 'fleet.powerstations.gridOutages.edit'] })).toBe(true);
  });

  it('needs one write scope for a write that needs no permission', () => {
    expect(writeAllowed(READ_ONLY_PERMISSIONS, null)).toBe(false);
    expect(writeAllowed([], null)).toBe(false);
    expect(writeAllowed(['fleet.dispatches.edit'], null)).toBe(true);
  });
});
