// Customer screens in Chromium against the real server: a retailer finds a customer in the list by
// its NMI, opens it and reaches its plan; a network sees the Information column instead of plans.
import { customerEndpoints } from '@vpp/shared/customers/endpoints';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { describe, expect, it } from 'vitest';
import { reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp({ SIM_NODES: '20' });

describe('customers', () => {
  it('opens a customer from the list and reaches its plan', async () => {
    const rita = await app.api('retailer');
    const { customers } = (await rita.call(customerEndpoints.list, { query: { limit: 200, offset: 0 } })).data;
    const onPlan = customers.find((c) => c.currentTariff);
    if (!onPlan?.currentTariff) throw new Error('no demo customer holds a plan');

    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Customers', exact: true }).click();
    await reachPath(page, '/customers/manage?limit=10&offset=0');
    const table = await shown(page.getByRole('table', { name: 'Customers' }));
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['NMI', 'Install Address', 'Retail Plan', 'Capabilities']);

    await page.getByRole('textbox', { name: 'Search' }).fill(onPlan.nmi);
    await reachPath(page, `/customers/manage?limit=10&offset=0&search=${onPlan.nmi}`);
    const row = table.getByRole('row', { name: new RegExp(onPlan.nmi) });
    await shown(row.getByText(onPlan.currentTariff.name));
    await row.click();
    await reachPath(page, `/customers/manage/${onPlan.nmi}`);
    await shown(page.getByRole('region', { name: 'Location' }).getByRole('region', { name: 'Customer location' }));
    await shown(page.getByRole('table', { name: 'Capabilities' }));

    await (await shown(page.getByRole('link', { name: CUSTOMER_MESSAGES.viewPlanDetails }))).click();
    await reachPath(page, `/customers/plans/${encodeURIComponent(onPlan.currentTariff.planCode)}`);
    await shown(page.getByRole('heading', { name: onPlan.currentTariff.name }));
  });

  it('shows a network the Information column and no plans', async () => {
    const page = await app.page();
    await signIn(page, 'network', 'Nathan');
    await page.goto('/customers/manage?limit=10&offset=0');
    const table = await shown(page.getByRole('table', { name: 'Customers' }));
    await shown(table.getByRole('row').nth(1));
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['NMI', 'Install Address', 'Capabilities', 'Information']);
    expect(await page.getByRole('combobox', { name: 'Tariff' }).count()).toBe(0);
  });
});
