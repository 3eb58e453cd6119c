// VPP screens against the real server in demo mode: create each type and land where spec 2 §4
// says, manual node toggles, the rename-only patch, delete with its confirmation, the
// unassigned-nodes modal, and FCAS VPPs that cannot be edited.
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, gone, pathOf, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

const vppPath = (id: number) => `/virtual-power-plants/manage/${id}?tab=MAP&limit=10&offset=0`;
const vppEditPath = (id: number) => `/virtual-power-plants/manage/${id}/edit?limit=10&offset=0`;

/** Fills and submits the New VPP form; `filter` is typed postcodes or a chosen state. */
async function createVpp(page: Page, name: string, kind: 'Individual Nodes' | 'Postcode' | 'State', filter?: string) {
  await page.goto('/virtual-power-plants/manage?limit=10&offset=0');
  await (await shown(page.getByRole('link', { name: 'New VPP' }))).click();
  await reachPath(page, '/virtual-power-plants/manage/new');
  await page.getByLabel('Name').fill(name);
  if (kind !== 'Individual Nodes') {
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: kind }).click();
  }
  if (kind === 'Postcode') await page.getByLabel('Postcodes').fill(filter ?? '');
  if (kind === 'State') {
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: filter, exact: true }).click();
  }
  await page.getByRole('button', { name: 'Create' }).click();
}

const idFrom = (page: Page) => Number(/\/virtual-power-plants\/manage\/(\d+)/.exec(pathOf(page))?.[1]);

describe('VPP list', () => {
  it('warns of unassigned nodes and lists them in a modal, and shows the FCAS VPPs below', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('link', { name: 'Build and Edit' }).click();
    await reachPath(page, '/virtual-power-plants/manage?limit=10&offset=0');
    const rita = await app.api('retailer');
    const { total } = await rita.call(vppEndpoints.unusedNodes, { query: { limit: 1, offset: 0 } });
    expect(total).toBeGreaterThan(0);
    await shown(page.getByText(`${total} node(s) are not currently assigned to a Virtual Power Plant`, { exact: true }));

    await page.getByRole('button', { name: 'View unassigned nodes' }).click();
    const dialog = await shown(page.getByRole('dialog', { name: 'Unassigned nodes' }));
    await shown(dialog.getByRole('row').nth(1));
    expect(await dialog.getByRole('row').count()).toBe(Math.min(10, total) + 1);
    await shown(dialog.getByText(`1-${Math.min(10, total)} of ${total} items`, { exact: true }));
    await dialog.getByRole('button', { name: 'Close' }).or(dialog.locator('.mantine-Modal-close')).first().click();
    await gone(dialog);

    const fcas = page.getByRole('table', { name: 'FCAS Virtual Power Plants' });
    await shown(fcas.getByRole('link', { name: 'FCAS Contingency Raise' }));
    expect(await page.getByRole('table', { name: 'Virtual Power Plants', exact: true }).getByText('FCAS Contingency Raise').count()).toBe(0);
  });

  it('offers New VPP only with the edit permission', async () => {
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    await page.goto('/virtual-power-plants/manage?limit=10&offset=0');
    await shown(page.getByRole('link', { name: 'Queensland' }));
    expect(await page.getByRole('link', { name: 'New VPP' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Queensland' }).click();
    await shown(page.getByRole('heading', { name: 'Queensland' }));
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
  });
});

describe('creating VPPs', () => {
  it('refuses a VPP without a name or postcode, with the spec texts', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await createVpp(page, '', 'Postcode', '');
    await shown(page.getByText('You must enter a Virtual Power Plant name.'));
    await shown(page.getByText('You must enter a value for postcode'));
    await shown(page.getByText('Virtual Power Plant invalid'));
    await shown(page.getByText('Please all required fields are filled in'));
    expect(pathOf(page)).toBe('/virtual-power-plants/manage/new');
  });

  it('lands a manual VPP on its edit screen, and a postcode or state VPP on its map tab', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');

    await createVpp(page, 'E2E Manual', 'Individual Nodes');
    await page.waitForURL(/\/virtual-power-plants\/manage\/\d+\/edit\?limit=10&offset=0$/);
    await shown(page.getByText('Virtual Power Plant E2E Manual successfully created.'));
    await shown(page.getByRole('heading', { name: 'Edit E2E Manual' }));

    const rita = await app.api('retailer');
    const { deployments } = await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } });
    const postcode = deployments[0].address.postcode;
    await createVpp(page, 'E2E Postcode', 'Postcode', ` ${postcode} ,`);
    await page.waitForURL(/\/virtual-power-plants\/manage\/\d+\?tab=MAP&limit=10&offset=0$/);
    await shown(page.getByText('Virtual Power Plant E2E Postcode successfully created.'));
    await shown(page.getByRole('heading', { name: 'E2E Postcode' }));
    await shown(page.getByText(`Postcodes: ${postcode}`));
    const created = await rita.call(vppEndpoints.get, { params: { id: idFrom(page) } });
    expect(created.nodes).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'List' }).click();
    await page.waitForURL(/tab=DEPLOYMENT_LIST/);
    const nodes = await shown(page.getByRole('table', { name: 'Nodes' }));
    await eventually(() => nodes.getByRole('row').count()).toBe(Math.min(10, created.nodes) + 1);

    await createVpp(page, 'E2E State', 'State', 'VIC');
    await page.waitForURL(/\/virtual-power-plants\/manage\/\d+\?tab=MAP&limit=10&offset=0$/);
    await shown(page.getByText('Virtual Power Plant E2E State successfully created.'));
    await shown(page.getByText('State: VIC'));
    await shown(page.getByText('There are currently no events on this Virtual Power Plant.'));
  });
});

describe('editing VPPs', () => {
  it('saves each manual node toggle at once, keeping search and filters in the URL', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const id = await rita.createVpp({ type: 'STATIC', name: 'E2E Toggles' });
    await page.goto(vppEditPath(id));
    const table = page.getByRole('table', { name: 'Nodes' });
    const first = table.getByRole('row').nth(1);
    const nodeId = Number(await (await shown(first)).getByRole('cell').nth(1).textContent());

    await first.getByRole('switch', { name: `Include node ${nodeId}` }).click({ force: true });
    await shown(page.getByText('Virtual Power Plant successfully updated.'));
    await eventually(async () => (await rita.call(vppEndpoints.get, { params: { id } })).nodes).toBe(1);
    await eventually(() => first.getByRole('switch', { name: `Include node ${nodeId}` }).isChecked()).toBe(true);

    await page.getByLabel('Show included only').click({ force: true });
    await page.waitForURL(/show_included_only=true/);
    await eventually(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('Address filter').fill('no such street anywhere');
    await page.waitForURL(/address_filter=no\+such\+street\+anywhere/);
    await shown(page.getByText('No nodes found for the current filter.'));
    await page.getByLabel('Address filter').fill('');
    await page.waitForURL((u) => !u.search.includes('address_filter'));

    await table.getByRole('switch', { name: `Include node ${nodeId}` }).click({ force: true });
    await eventually(async () => (await rita.call(vppEndpoints.get, { params: { id } })).nodes).toBe(0);
    await shown(page.getByText('No nodes have been added to this virtual power plant.'));
  });

  it('shows one success toast for several toggles, and asks before including every matching node, with the count', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const id = await rita.createVpp({ type: 'STATIC', name: 'E2E Include All' });
    await page.goto(vppEditPath(id));
    const table = page.getByRole('table', { name: 'Nodes' });
    await shown(table.getByRole('row').nth(2));
    for (const n of [1, 2]) {
      const row = table.getByRole('row').nth(n);
      const nodeId = Number(await row.getByRole('cell').nth(1).textContent());
      await row.getByRole('switch', { name: `Include node ${nodeId}` }).click({ force: true });
      await eventually(async () => (await rita.call(vppEndpoints.get, { params: { id } })).nodes).toBe(n);
    }
    await shown(page.getByText('Virtual Power Plant successfully updated.'));
    expect(await page.getByText('Virtual Power Plant successfully updated.').count()).toBe(1);

    const fleet = (await rita.call(nodeEndpoints.list, { query: { limit: 10, offset: 0 } })).total;
    await page.getByRole('button', { name: 'Include all matching' }).click();
    const dialog = page.getByRole('dialog', { name: 'Include all matching' });
    await shown(dialog.getByText(`Include all ${fleet} nodes of the fleet in this Virtual Power Plant?`));
    await dialog.getByRole('button', { name: 'Back' }).click();
    await gone(dialog);
    expect((await rita.call(vppEndpoints.get, { params: { id } })).nodes).toBe(2);
    await page.getByRole('button', { name: 'Include all matching' }).click();
    await dialog.getByRole('button', { name: 'Include all' }).click();
    await eventually(async () => (await rita.call(vppEndpoints.get, { params: { id } })).nodes).toBe(fleet);
  });

  it('leaves the edit screen for the map tab after a rename-only patch', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const id = await (await app.api('retailer')).createVpp({ type: 'STATIC', name: 'E2E Rename' });
    await page.goto(vppEditPath(id));
    // The form is filled once the VPP has loaded into it; typing before then would be overwritten.
    const form = page.getByRole('form', { name: 'Edit Virtual Power Plant' });
    const name = form.getByLabel('Name');
    await eventually(() => name.inputValue()).toBe('E2E Rename');
    await name.fill('   ');
    await form.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByText('Please ensure your virtual power plant has a name'));
    await name.fill('E2E Renamed');
    await form.getByRole('button', { name: 'Save' }).click();
    await reachPath(page, vppPath(id));
    await shown(page.getByText('Virtual Power Plant E2E Renamed successfully updated.'));
    await shown(page.getByRole('heading', { name: 'E2E Renamed' }));
  });

  it('saves an automatic VPP filter and lands on the map tab; its type cannot be changed', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const id = await (await app.api('retailer')).createVpp({ type: 'DYNAMIC', name: 'E2E Filter', filters: { state: 'NSW' } });
    await page.goto(vppPath(id));
    await (await shown(page.getByRole('link', { name: 'Edit', exact: true }))).click();
    await reachPath(page, vppEditPath(id));
    await eventually(() => page.getByRole('combobox', { name: 'Type' }).isDisabled()).toBe(true);
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'QLD', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await reachPath(page, vppPath(id));
    await shown(page.getByText('Virtual Power Plant E2E Filter successfully updated.'));
    await shown(page.getByText('State: QLD'));
  });

  it('offers no Edit or Delete on an FCAS VPP', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/virtual-power-plants/manage?limit=10&offset=0');
    await (await shown(page.getByRole('link', { name: 'FCAS Contingency Lower' }))).click();
    await shown(page.getByText('DUID: SUNVPP1L'));
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
  });
});

describe('deleting a VPP', () => {
  it('asks first, then deletes and returns to the list', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const id = await (await app.api('retailer')).createVpp({ type: 'DYNAMIC', name: 'E2E Doomed', filters: { state: 'SA' } });
    await page.goto(vppPath(id));
    await (await shown(page.getByRole('button', { name: 'Delete' }))).click();
    const dialog = await shown(page.getByRole('dialog', { name: 'Delete Virtual Power Plant' }));
    await shown(dialog.getByText('Are you sure you want to delete Virtual Power Plant E2E Doomed?'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    await page.getByRole('button', { name: 'Delete' }).click();
    await (await shown(page.getByRole('dialog', { name: 'Delete Virtual Power Plant' }))).getByRole('button', { name: 'Delete' }).click();
    await reachPath(page, '/virtual-power-plants/manage?limit=10&offset=0');
    await shown(page.getByText('Power Station E2E Doomed was deleted successfully.'));
    await shown(page.getByRole('link', { name: 'Queensland' }));
    expect(await page.getByRole('link', { name: 'E2E Doomed' }).count()).toBe(0);
  });
});
