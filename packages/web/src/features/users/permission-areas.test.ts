import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { expect, it } from 'vitest';
import { groupByArea, permissionArea } from './permission-areas.ts';

it('puts each permission in its area', () => {
  expect(permissionArea('fleet.administrator')).toBe('Account');
  expect(permissionArea('fleet.myReposit.users')).toBe('Account');
  expect(permissionArea('fleet.myReposit.billing')).toBe('Billing');
  expect(permissionArea('fleet.node.data.view')).toBe('Fleet');
  expect(permissionArea('fleet.any')).toBe('Fleet');
  expect(permissionArea('fleet.powerstations.edit')).toBe('Virtual Power Plants');
  expect(permissionArea('fleet.powerstations.gridOutages.edit')).toBe('Dispatch');
  expect(permissionArea('fleet.rert.dispatches.edit')).toBe('Dispatch');
  expect(permissionArea('fleet.curtailments.any')).toBe('Dispatch');
  expect(permissionArea('fleet.customerInformation.plans.edit')).toBe('Customers');
  expect(permissionArea('customer_data.view')).toBe('Customers');
  expect(permissionArea('fleet.billing.gridcredits.view')).toBe('Billing');
  expect(permissionArea('fleet.analysis.export.edit')).toBe('Analysis');
  expect(permissionArea('fleet.kitDesigner')).toBe('Ordering');
  expect(permissionArea('fleet.zendesk.edit')).toBe('Support');
});

it('groups every known permission once, areas in order', () => {
  const groups = groupByArea(PERMISSIONS);
  expect(groups.flatMap((g) => g.permissions).length).toBe(PERMISSIONS.length);
  expect(groups.map((g) => g.area)).toEqual([
    'Account',
    'Fleet',
    'Virtual Power Plants',
    'Dispatch',
    'Customers',
    'Billing',
    'Analysis',
    'Ordering',
    'Support',
  ]);
});
