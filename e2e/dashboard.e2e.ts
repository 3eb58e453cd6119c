// The dashboard against the real server in demo mode (issue 16): the default Welcome widget, a widget
// of each kind the user may add (and not the others for the operator), a widget moved and resized
// and found again after a reload, full screen rotating, pausing and exiting, and the voltage heat
// map's coloured hexagons with their legend.

import AxeBuilder from '@axe-core/playwright';
import { dashboardEndpoints } from '@vpp/shared/dashboard/endpoints';
import type { Dashboard } from '@vpp/shared/dashboard/layout';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser.ts';
import { eventually, gone, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** The next reply of POST /account/dashboard (the save made 2000 ms after the last change), of `count` widgets when given. */
const saved = (page: Page, count?: number) =>
  page.waitForResponse(
    (r: Response) =>
      r.request().method() === 'POST' &&
      new URL(r.url()).pathname === '/account/dashboard' &&
      r.ok() &&
      (count === undefined || (JSON.parse(r.request().postData() ?? '{}') as Dashboard).widgets?.length === count),
    { timeout: 15_000 },
  );

async function addWidget(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add Widget' }).click();
  await (await shown(page.getByRole('menuitem', { name, exact: true }))).click();
  await gone(page.getByRole('menu'));
}

const widget = (page: Page, name: string) => page.locator('.react-grid-item').filter({ has: page.getByRole('region', { name, exact: true }) });

describe('dashboard', () => {
  it('starts with the Welcome widget, adds each kind with its figures, colours the heat map, and keeps a moved and resized widget', async () => {
    const page = await app.page({ viewport: { width: 1440, height: 900 } });
    const rita = await app.api('retailer');
    // The VPP with the most nodes reporting a voltage lately: the heat map's choice below.
    const { result: vpps } = await rita.call(vppEndpoints.list, { query: { limit: 10000, offset: 0 } });
    const reporting = await Promise.all(
      vpps.map(async (v) => ({
        v,
        n: (
          (await rita.call(vppEndpoints.latest, { params: { id: v.id }, query: { metrics: 'meterVoltage', format: 'nodes', maxAge: 1200 } })).meterVoltage ?? []
        ).length,
      })),
    );
    const vpp = reporting.sort((a, b) => b.n - a.n)[0];
    expect(vpp.n).toBeGreaterThan(0);

    await signIn(page, 'retailer', 'Rita');
    await shown(page.getByRole('region', { name: 'Welcome', exact: true }));
    expect(await page.locator('.react-grid-item').count()).toBe(1);

    // The first added widget replaces the Welcome widget; each next one goes below, in column 0.
    // Four widgets: a slow machine may save after the first few, then again with all four.
    const firstSave = saved(page, 4);
    for (const name of ['Voltage Heat Map', 'Single Stat', 'Node Map', 'Data Graph']) await addWidget(page, name);
    await shown(page.getByText('Saving...'));
    await gone(page.getByRole('region', { name: 'Welcome', exact: true }));
    const first = (await (await firstSave).json()) as { data: Dashboard };
    expect(first.data.widgets.map((w) => [w.widgetId, w.layout])).toEqual([
      ['VOLTAGE_HEAT_MAP', { x: 0, y: 0, w: 1, h: 2 }],
      ['SINGLE_STAT', { x: 0, y: 2, w: 1, h: 2 }],
      ['NODE_MAP', { x: 0, y: 4, w: 1, h: 2 }],
      ['DATA_GRAPH', { x: 0, y: 6, w: 1, h: 2 }],
    ]);
    await gone(page.getByText('Saving...'));

    // Each widget shows its figures.
    const { deploymentCounts } = (await rita.call(dashboardEndpoints.totals, {})).data;
    await shown(widget(page, 'Single Stat').getByText(deploymentCounts.commissioned.toLocaleString('en-AU'), { exact: true }));
    await shown(widget(page, 'Single Stat').getByText(deploymentCounts.commissioned === 1 ? 'Commissioned node' : 'Commissioned nodes'));
    await shown(widget(page, 'Node Map').getByRole('region', { name: 'Map of the fleet' }).locator('canvas'));
    await shown(
      widget(page, 'Data Graph').getByRole('button', { name: 'Show data table' }).or(widget(page, 'Data Graph').getByText('No data to display on the graph')),
    );

    // The heat map: its VPP chosen in its settings, then its reporting nodes in coloured hexagons, with the legend.
    const heat = widget(page, 'Voltage Heat Map');
    await shown(heat.getByText('Choose a Virtual Power Plant in this widget’s settings.'));
    const chosen = saved(page);
    // The widget's own reply: the server's view of the nodes reporting within maxAge when it asked (others may have come or gone since the count above).
    const viewReply = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/powerstations/${vpp.v.id}/data/latest/heat-map` && r.ok(), {
      timeout: 15_000,
    });
    await heat.getByRole('button', { name: 'Voltage Heat Map settings' }).click();
    await page.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.v.name, exact: true }).click();
    await page.keyboard.press('Escape');
    await chosen;
    const reported = ((await (await viewReply).json()) as { data: { total: number } }).data.total;
    expect(reported).toBeGreaterThan(0);
    const map = await shown(heat.getByRole('region', { name: 'Voltage heat map', exact: true }));
    await eventually(() => map.getAttribute('data-node-count')).toBe(String(reported));
    const canvas = map.getByTestId('heat-map-canvas');
    await eventually(async () => Number(await canvas.getAttribute('data-painted'))).toBeGreaterThan(0);
    expect(await map.getByRole('list', { name: 'Legend' }).getByRole('listitem').allTextContents()).toEqual([
      'Below 216.2 V',
      '<235v',
      '240v',
      '>245v',
      'Above 253 V',
    ]);
    // Hexagons, at most one per node, at spec 2 §9's radius for the zoom shown, each painted in a colour of the legend.
    const hexagons = async () => {
      const [made, painted, radius, zoom, colours] = await Promise.all(
        ['data-hexagons', 'data-painted', 'data-radius', 'data-zoom', 'data-colours'].map((a) => canvas.getAttribute(a)),
      );
      return { made: Number(made), painted: Number(painted), radius: Number(radius), zoom: Number(zoom), colours: colours ?? '' };
    };
    const radiusFor = (zoom: number) => (zoom <= 12 ? 1000 : zoom <= 14 ? 500 : zoom <= 15 ? 300 : 100);
    const legendColours = await map
      .getByRole('list', { name: 'Legend' })
      .locator('[aria-hidden]')
      .evaluateAll((swatches) =>
        swatches.map((e) => {
          const [r, g, b] = (getComputedStyle(e).backgroundColor.match(/\d+/g) ?? []).map(Number);
          return `#${[r, g, b].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
        }),
      );
    const framed = await hexagons();
    expect(framed.made).toBeGreaterThan(0);
    expect(framed.made).toBeLessThanOrEqual(reported);
    expect(framed.painted).toBeLessThanOrEqual(framed.made);
    expect(framed.radius).toBe(radiusFor(framed.zoom));
    const painted = framed.colours.split(',').map((c) => c.split(':'));
    expect(painted.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(framed.painted);
    for (const [colour] of painted) expect(legendColours).toContain(colour);
    // Closer than zoom 12 the hexagons are made again, 500 m across.
    while ((await hexagons()).zoom <= 12) {
      const before = (await hexagons()).zoom;
      await map.getByRole('button', { name: 'Zoom in' }).click();
      await eventually(async () => (await hexagons()).zoom).toBeGreaterThan(before);
    }
    const closer = await hexagons();
    expect(closer.radius).toBe(radiusFor(closer.zoom));
    expect(closer.radius).toBeLessThan(1000);
    expect(closer.made).toBeGreaterThan(0);

    // Move the Single Stat to the second column by its title, and make it wider from its corner.
    const stat = widget(page, 'Single Stat');
    const title = stat.getByRole('heading', { name: 'Single Stat' });
    const box = await title.boundingBox();
    const cell = await stat.boundingBox();
    if (!box || !cell) throw new Error('the Single Stat is not on screen');
    const moved = saved(page);
    await page.mouse.move(box.x + 10, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + cell.width * 0.6, box.y + 10, { steps: 8 });
    await page.mouse.move(box.x + cell.width + 20, box.y + 10, { steps: 8 });
    await page.mouse.up();
    const afterMove = (await (await moved).json()) as { data: Dashboard };
    expect(afterMove.data.widgets.find((w) => w.widgetId === 'SINGLE_STAT')?.layout).toEqual({ x: 1, y: 0, w: 1, h: 2 });
    // Then wider by a column, from its corner (the widget has finished sliding into place by the save).
    const h = await stat.locator('.react-resizable-handle-se').boundingBox();
    if (!h) throw new Error('no resize handle');
    const resized = saved(page);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + cell.width * 0.6, h.y + 5, { steps: 8 });
    await page.mouse.move(h.x + cell.width + 20, h.y + 5, { steps: 8 });
    await page.mouse.up();
    const afterResize = (await (await resized).json()) as { data: Dashboard };
    expect(afterResize.data.widgets.find((w) => w.widgetId === 'SINGLE_STAT')?.layout).toEqual({ x: 1, y: 0, w: 2, h: 2 });
    await gone(page.getByText('Saving...'));

    await page.reload();
    const again = widget(page, 'Single Stat');
    await shown(again.getByRole('heading', { name: 'Single Stat' }));
    const after = await again.boundingBox();
    expect(after?.x).toBeGreaterThan(cell.x + cell.width / 2);
    expect(after?.width).toBeGreaterThan(cell.width * 1.8);
    await shown(widget(page, 'Voltage Heat Map').getByText(vpp.v.name, { exact: true }));

    // WCAG 2.2 AA (axe-core) on the dashboard of four widgets, as accessibility.e2e.ts checks the other screens.
    await shown(widget(page, 'Single Stat').getByTestId('single-stat-value'));
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => ({ rule: v.id, targets: v.nodes.slice(0, 3).map((n) => n.html.slice(0, 160)) })),
    ).toEqual([]);
  });

  it('offers the operator only the widgets their permissions allow, and their Data Graph has no VPP choice', async () => {
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    await page.getByRole('button', { name: 'Add Widget' }).click();
    const menu = await shown(page.getByRole('menu'));
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Welcome', 'Single Stat', 'Node Map', 'Data Graph']);
    await page.keyboard.press('Escape');
    for (const name of ['Single Stat', 'Node Map', 'Data Graph']) await addWidget(page, name);
    const graph = widget(page, 'Data Graph');
    await shown(graph.getByText('Solar Power · All fleet nodes'));
    await graph.getByRole('button', { name: 'Data Graph settings' }).click();
    await shown(page.getByRole('combobox', { name: 'Metric' }));
    expect(await page.getByRole('combobox', { name: 'Virtual Power Plant' }).count()).toBe(0);
    await shown(widget(page, 'Single Stat').getByTestId('single-stat-value'));
    await shown(widget(page, 'Node Map').getByRole('region', { name: 'Map of the fleet' }));
  });

  it('rotates full screen to the next widget after 15 s, pauses, resumes and exits, with the ticker along the bottom', async () => {
    const nathan = await app.api('network');
    await nathan.call(dashboardEndpoints.saveLayout, {
      body: {
        widgets: [
          { widgetId: 'SINGLE_STAT', layout: { x: 0, y: 0, w: 1, h: 2 }, settings: { metric: 'commissioned' } },
          { widgetId: 'NODE_MAP', layout: { x: 1, y: 0, w: 2, h: 2 }, settings: { shouldCluster: true } },
        ],
      },
    });
    const page = await app.page();
    await page.goto('/');
    await logIn(page, 'network');
    await shown(page.getByRole('region', { name: 'Single Stat', exact: true }));
    await page.getByRole('button', { name: 'Full Screen' }).click();
    const full = await shown(page.getByRole('dialog', { name: 'Full screen dashboard' }));
    await shown(full.getByText('Single Stat: 1 of 2'));
    await shown(full.getByRole('marquee', { name: 'Ticker' }));
    // The next widget after 15,000 ms (nothing shortened: the wait is longer than the period).
    await shown(full.getByText('Node Map: 2 of 2'), 25_000);
    // Paused at once (the map is looked at while paused): on a loaded machine, waiting for the map first
    // could take the rest of the 15 s and the Pause would land on the next widget.
    await full.getByRole('button', { name: 'Pause' }).click();
    await shown(full.getByText('Node Map: 2 of 2 (paused)'));
    await shown(full.getByRole('region', { name: 'Map of the fleet' }));
    await full.getByRole('button', { name: 'Resume' }).click();
    await shown(full.getByText('Single Stat: 1 of 2'), 25_000);
    await full.getByRole('button', { name: 'Exit Full Screen' }).click();
    await gone(full);
    await page.getByRole('button', { name: 'Full Screen' }).click();
    await shown(page.getByRole('dialog', { name: 'Full screen dashboard' }));
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog', { name: 'Full screen dashboard' }));
  });
});
