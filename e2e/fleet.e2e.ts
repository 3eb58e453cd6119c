import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** Calls the API from the page with the signed-in user's token. */
async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { authorization: `Bearer ${localStorage.getItem('vpp.access_token')}` } });
    return res.json();
  }, path);
}

describe('fleet monitoring', () => {
  it('searches the fleet, with a result and with none', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('link', { name: 'Fleet Monitoring' }).click();
    await page.waitForURL(/\/fleet-monitoring\/nodes\?tab=LIST&limit=10&offset=0/);
    const table = page.getByRole('table', { name: 'Nodes' });
    await shown(table.getByRole('row').nth(1));
    const serial = (await table.getByRole('row').nth(2).getByRole('cell').nth(4).textContent()) ?? '';
    expect(serial).toMatch(/^RP\d+$/);

    await page.getByLabel('Search').fill(serial.toLowerCase());
    await page.waitForURL(new RegExp(`f=${serial.toLowerCase()}`));
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).getByRole('cell').nth(4).textContent()).toBe(serial);

    await page.getByLabel('Search').fill('no such node anywhere');
    await shown(page.getByText('No nodes have been found for this search criteria'));
  });

  it('opens a node from the list; tabs work and the graph settings are kept in the URL', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/fleet-monitoring/nodes?tab=LIST&status=ONLINE&limit=10&offset=0');
    const row = page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1);
    const id = (await (await shown(row)).getByRole('cell').first().textContent()) ?? '';
    await row.click();
    await page.waitForURL(
      new RegExp(
        `/fleet-monitoring/nodes/${id}\\?date=\\d{4}-\\d{2}-\\d{2}&period=day&house=true&grid=true&solar=true&sga=false&battery=true&system=false&secondaryYAxis=state_of_charge&splitByPhase=false&submeters=`,
      ),
    );
    await shown(page.getByRole('img', { name: 'Monitoring graph' }));
    // Today is the last day that can be shown: the next arrow is hidden, the previous one is not.
    await shown(page.getByRole('button', { name: 'Previous' }));
    expect(await page.getByRole('button', { name: 'Next' }).isVisible()).toBe(false);

    await page.locator('label', { hasText: /^Week$/ }).click();
    await page.waitForURL(/period=week/);
    await page.locator('label', { hasText: /^Solar$/ }).click();
    await page.waitForURL(/solar=false/);
    // The URL already says period=week: wait for the date in it to move back a week.
    const weekOf = new URL(page.url()).searchParams.get('date');
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForURL((url) => url.searchParams.get('period') === 'week' && url.searchParams.get('date') !== weekOf);
    await shown(page.getByRole('button', { name: 'Next' }));

    await page.getByRole('tab', { name: 'System Components' }).click();
    await shown(page.getByText('Reposit unit'));
    await page.getByRole('tab', { name: 'Location' }).click();
    await shown(page.getByRole('cell', { name: 'NMI' }).or(page.getByRole('rowheader', { name: 'NMI' })));
    await page.getByRole('tab', { name: 'Event Log' }).click();
    await shown(page.getByRole('table', { name: 'Event log' }).getByText('Commissioned').first());
  });

  it("hides the network on an installer's Location tab", async () => {
    const page = await app.page();
    await signIn(page, 'installer', 'Ingrid');
    const list = await api<{ deployments: { id: number; network: unknown }[] }>(page, '/v2/nodes?limit=1');
    expect(list.deployments[0].network).toBeNull();
    await page.goto(`/fleet-monitoring/nodes/${list.deployments[0].id}?tab=LOCATION`);
    await shown(page.getByText('Install address'));
    expect(await page.getByText('NMI', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Network', { exact: true }).count()).toBe(0);
  });

  it("opens an inverter's web portal from the button", async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const list = await api<{ deployments: { id: number; displayStatus: string }[] }>(page, '/v2/nodes?limit=40&status=ONLINE');
    let target: number | undefined;
    for (const n of list.deployments) {
      const d = await api<{ data: { energySystems: { inverter: { hasWebPortal: boolean } }[] } }>(page, `/api/nodes/${n.id}/detail`);
      if (d.data.energySystems[0].inverter.hasWebPortal) {
        target = n.id;
        break;
      }
    }
    expect(target).toBeDefined();
    await page.goto(`/fleet-monitoring/nodes/${target}?tab=SYSTEM_COMPONENTS`);
    const [popup] = await Promise.all([page.waitForEvent('popup'), (await shown(page.getByRole('button', { name: 'Web Portal' }))).click()]);
    await popup.waitForURL(/\/inverter-portal\?token=/);
    await shown(popup.getByText('Live readings at'));
  });
});
