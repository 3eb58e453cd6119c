import { dashboardEndpoints } from '@vpp/shared/dashboard/endpoints';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, shown, signIn, useApp } from './support/fixtures.ts';

// Eight days of history: the node page steps back a week, and the week before this one must have
// data whatever the weekday (one day of history reaches into it only on a Monday).
const app = useApp({ SIM_HISTORY_DAYS: '8' });

/** Minutes since midnight, now, in time zone `zone`. */
function minutesIntoDay(zone: string) {
  const parts = new Intl.DateTimeFormat('en-AU', { timeZone: zone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts();
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return part('hour') * 60 + part('minute');
}

/**
 * Waits for the Monitoring tab's graph of node `id`'s today. A day's graph plots its closed 5-minute
 * buckets, so in the first minutes of the node's local day (its first bucket not yet closed and folded)
 * the tab says 'No data to display on the graph' instead: allowed then, and only then, so that the test
 * holds at any hour (CI at 14:01 UTC, a Brisbane midnight, met it).
 */
async function todaysGraphShown(page: Page, id: number | string) {
  const graph = page.getByRole('img', { name: 'Monitoring graph' });
  await shown(graph.or(page.getByText('No data to display on the graph')));
  if (await graph.isVisible()) return;
  const { data: node } = await (await app.api('retailer')).call(nodeEndpoints.detail, { params: { id: Number(id) } });
  expect(minutesIntoDay(node.timezone)).toBeLessThan(10);
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
    await eventually(() => table.getByRole('row').count()).toBe(2);
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
    await todaysGraphShown(page, id);
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
    expect(new URL(page.url()).searchParams.get('tab')).toBe('EVENT_LOG');

    // Changing tabs changes only the tab: back on Monitoring, the graph settings are still there.
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    await shown(page.getByRole('img', { name: 'Monitoring graph' }));
    const back = new URL(page.url()).searchParams;
    expect(back.get('tab')).toBeNull();
    expect(back.get('solar')).toBe('false');
    expect(back.get('period')).toBe('week');
    expect(back.get('date')).not.toBe(weekOf);
  });

  it('says once in the page that a node is not there, with a way back, and stops asking for it', async () => {
    const page = await app.page();
    // The page's timers run on a clock the test moves: 30 seconds of refreshes pass without waiting for them.
    await page.clock.install();
    await signIn(page, 'retailer', 'Rita');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/nodes/99999')) asked.push(r.url());
    });
    await page.goto('/fleet-monitoring/nodes/99999');
    await shown(page.getByText("This node could not be found. It may have been removed, or it is not in your organisation's fleet."));
    await shown(page.getByRole('heading', { name: 'Node not found' }));
    await page.clock.runFor(30_000);
    expect(asked).toHaveLength(1);
    // No toast: the page has said it.
    expect(await page.getByText('Failed to load data for this node.').count()).toBe(0);
    expect(await page.getByText('No such node.').count()).toBe(0);
    await page.getByRole('link', { name: 'Back to Fleet Monitoring' }).click();
    await page.waitForURL(/\/fleet-monitoring\/nodes\?limit=10&offset=0/);
  });

  it('opens a node from the fleet list with the keyboard alone: Tab to its row, Enter', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0');
    const first = page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1);
    await shown(first);
    const focusedRow = () => page.evaluate(() => document.activeElement?.tagName === 'TR' && document.activeElement.closest('tbody') !== null);
    // Through the header, the sidebar and the page's controls to the first row of the list.
    for (let i = 0; i < 80 && !(await focusedRow()); i++) await page.keyboard.press('Tab');
    expect(await focusedRow()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/fleet-monitoring\/nodes\/\d+/);
    await shown(page.getByRole('tab', { name: 'Monitoring' }));
  });

  it('keeps the chosen day through Week and Month and back to Day', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const { deployments } = await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } });
    await page.goto(`/fleet-monitoring/nodes/${deployments[0].id}`);
    await page.waitForURL(/period=day/);
    const dateOf = () => new URL(page.url()).searchParams.get('date');
    const today = dateOf();
    // The day before: a day that is not the first of its week or month on most days of the year.
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForURL((u) => u.searchParams.get('date') !== today);
    const chosen = dateOf();
    // The period's segment, clicked until the URL has it: in CI one click on Day after Month was
    // lost (the URL kept 'month' for 30 s; the retry passed), so a lost click is clicked again and
    // what is asserted stays the date kept across the periods.
    const choose = async (period: 'Day' | 'Week' | 'Month') => {
      for (let attempt = 1; ; attempt++) {
        await page.locator('label', { hasText: new RegExp(`^${period}$`) }).click();
        try {
          await page.waitForURL((u) => u.searchParams.get('period') === period.toLowerCase(), { timeout: 10_000 });
          return;
        } catch (err) {
          if (attempt === 3) throw err;
        }
      }
    };
    for (const period of ['Week', 'Month', 'Day'] as const) await choose(period);
    expect(dateOf()).toBe(chosen);
  });

  it('only logs a console warning for an unknown period or secondary axis in the URL, and shows the defaults', async () => {
    const page = await app.page();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await signIn(page, 'retailer', 'Rita');
    const list = await (await app.api('retailer')).call(nodeEndpoints.list, { query: { limit: 1, status: 'ONLINE' } });
    await page.goto(`/fleet-monitoring/nodes/${list.deployments[0].id}?period=fortnight&secondaryYAxis=humidity`);
    await page.waitForURL((u) => u.searchParams.get('period') === 'day' && u.searchParams.get('secondaryYAxis') === 'state_of_charge');
    await todaysGraphShown(page, list.deployments[0].id);
    expect(warnings).toContain('Unknown period "fortnight": showing day.');
    expect(warnings).toContain('Unknown secondary axis "humidity": showing state_of_charge.');
    expect(await page.getByText(/^Failed to/).count()).toBe(0);
  });

  it('shows no monitoring graph or summary to a user without fleet.node.data.view, and asks for no data', async () => {
    const page = await app.page();
    const dataCalls: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/nodes\/\d+\/data|\/submeter\//.test(r.url())) dataCalls.push(r.url());
    });
    await signIn(page, 'operator', 'Oscar');
    const list = await (await app.api('operator')).call(nodeEndpoints.list, { query: { limit: 1 } });
    await page.goto(`/fleet-monitoring/nodes/${list.deployments[0].id}`);
    await shown(page.getByText("Viewing this node's monitoring graph and energy summary needs the Node data permission."));
    expect(await page.getByRole('img', { name: 'Monitoring graph' }).count()).toBe(0);
    expect(await page.getByText('Consumption', { exact: true }).count()).toBe(0);
    expect(await page.getByText('Not Authorized').count()).toBe(0);
    expect(dataCalls).toEqual([]);
    // The other tabs still open.
    await page.getByRole('tab', { name: 'Location' }).click();
    await shown(page.getByText('Install address'));
  });

  it("hides the network on an installer's Location tab, but shows the NMI there and in the list", async () => {
    const page = await app.page();
    await signIn(page, 'installer', 'Ingrid');
    const list = await (await app.api('installer')).call(nodeEndpoints.list, { query: { limit: 1 } });
    const { id, network } = list.deployments[0];
    expect(network.nmi).toMatch(/^\w{11}$/);
    expect(network.network).toBeNull();
    await page.goto(`/fleet-monitoring/nodes/${id}?tab=LOCATION`);
    await shown(page.getByText('Install address'));
    await shown(page.getByText('NMI', { exact: true }));
    await shown(page.getByRole('cell', { name: network.nmi, exact: true }));
    expect(await page.getByText('Network', { exact: true }).count()).toBe(0);

    await page.goto('/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0');
    const table = page.getByRole('table', { name: 'Nodes' });
    await shown(table.getByRole('columnheader', { name: 'NMI' }));
    await shown(table.getByRole('cell', { name: network.nmi, exact: true }));
  });

  it('filters the map by status as well as the list, and says when nothing matches', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const online = await (await app.api('retailer')).call(dashboardEndpoints.map, { query: { status: 'ONLINE' } });
    // The map asks the server for its view and for vector tiles of it (issue 30), never for every node.
    const tile = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/dashboard/map/tiles/') && r.ok(), { timeout: 30_000 });
    const everyNode: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/dashboard/map') everyNode.push(r.url());
    });
    await page.goto('/fleet-monitoring/nodes?tab=MAP&status=ONLINE');
    const map = await shown(page.getByRole('region', { name: 'Fleet map' }));
    await eventually(() => map.getAttribute('data-node-count')).toBe(String(online.deployments.length));
    expect(new URL((await tile).url()).searchParams.get('status')).toBe('ONLINE');
    await eventually(async () => Number(await map.locator('[data-painted]').getAttribute('data-painted'))).toBeGreaterThan(0);
    expect(everyNode).toEqual([]);
    await shown(page.getByRole('textbox', { name: 'Status' }).or(page.getByRole('combobox', { name: 'Status' })));
    // The legend gives the status colours; screen readers hear the count and where the nodes are listed.
    const legend = map.getByRole('list', { name: 'Legend' });
    await eventually(() => legend.getByRole('listitem').allTextContents()).toEqual([
      'Online',
      'Offline',
      'Awaiting Contact',
      'Not Commissioned',
      'Cluster of mixed statuses (one status: its colour)',
    ]);
    await eventually(() => map.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? null)).toBe(
      `Shows ${online.deployments.length} nodes, coloured by status. The list view (View List) lists them.`,
    );
    // At 1440×900 the whole map, its attribution included, is in the window.
    await page.setViewportSize({ width: 1440, height: 900 });
    const attribution = await shown(map.getByText('Coastline: Natural Earth'));
    await eventually(async () => {
      const [m, a] = [await map.boundingBox(), await attribution.boundingBox()];
      return m && a && m.y + m.height <= 900 && a.y + a.height <= 900;
    }).toBe(true);

    await page.goto('/fleet-monitoring/nodes?tab=MAP&f=no%20such%20node%20anywhere');
    await shown(page.getByText('No nodes have been found for this search criteria'));
    await eventually(() => page.getByRole('region', { name: 'Fleet map' }).getAttribute('data-node-count')).toBe('0');
  });

  it("opens an inverter's web portal from the button", async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const rita = await app.api('retailer');
    const list = await rita.call(nodeEndpoints.list, { query: { limit: 40, status: 'ONLINE' } });
    let target: number | undefined;
    for (const n of list.deployments) {
      const d = await rita.call(nodeEndpoints.detail, { params: { id: n.id } });
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
