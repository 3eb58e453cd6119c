// The dashboard painted in Chromium (issue 16): a user's dashboard of five widgets (the voltage
// heat map of a VPP, the fleet's node map, a deployment count, a VPP's live solar power and the
// fleet's Data Graph), timed from the page's navigation to the moment all five show their data:
// both maps drawn (MapLibre's first idle with features), both figures and the graph. Needs the
// built web app (packages/web/dist), served by the app under test.
import type { DashboardBody } from '@vpp/shared';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The five widgets: the heat map and node map large, as a control room's wall has them. */
export const fiveWidgets = (vpp: number): DashboardBody => ({
  widgets: [
    { widgetId: 'VOLTAGE_HEAT_MAP', layout: { x: 0, y: 0, w: 2, h: 3 }, settings: { powerstation: vpp } },
    { widgetId: 'NODE_MAP', layout: { x: 2, y: 0, w: 2, h: 3 }, settings: { shouldCluster: true } },
    { widgetId: 'SINGLE_STAT', layout: { x: 4, y: 0, w: 1, h: 2 }, settings: { metric: 'commissioned' } },
    { widgetId: 'SINGLE_STAT', layout: { x: 4, y: 2, w: 1, h: 2 }, settings: { metric: 'solarPower', powerstation: vpp } },
    { widgetId: 'DATA_GRAPH', layout: { x: 0, y: 3, w: 4, h: 2 }, settings: { powerstation: '__ALL_FLEET_NODES__', metric: 'solarPower' } },
  ],
});

/**
 * Saves the five widgets as the user's dashboard, then opens it `runs` times in a fresh page
 * (1440×900, signed in by the stored token) and answers the milliseconds from navigation to all
 * five painted, each run, and the nodes the heat map drew.
 */
export async function measureDashboardPaint(base: string, token: string, vpp: number, runs: number): Promise<{ ms: number[]; heatMapNodes: number }> {
  const save = await fetch(`${base}/account/dashboard`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(fiveWidgets(vpp)),
  });
  if (!save.ok) throw new Error(`POST /account/dashboard: ${save.status}`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const ms: number[] = [];
  let heatMapNodes = 0;
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({
        baseURL: base,
        viewport: { width: 1440, height: 900 },
        timezoneId: 'Australia/Sydney',
        serviceWorkers: 'block',
      });
      await context.addInitScript((t) => localStorage.setItem('vpp.access_token', t), token);
      const page = await context.newPage();
      await page.goto('/');
      const handle = await page.waitForFunction(
        () => {
          const painted = Array.from(document.querySelectorAll<HTMLElement>('[data-painted]')).filter((e) => Number(e.dataset.painted) > 0);
          const figures = Array.from(document.querySelectorAll('[data-testid="single-stat-value"]')).filter((e) => e.textContent && e.textContent !== '–');
          const region = document.querySelector('[aria-label="Data Graph"]');
          const graph = Boolean(region?.querySelector('canvas') || region?.textContent?.includes('No data to display on the graph'));
          const w = window as unknown as { marks?: Record<string, number> };
          w.marks ??= {};
          const conditions: Record<string, boolean> = {
            grid: Boolean(document.querySelector('.react-grid-item')),
            maps1: painted.length >= 1,
            maps2: painted.length >= 2,
            fig1: figures.length >= 1,
            fig2: figures.length >= 2,
            graph: Boolean(graph),
          };
          for (const k of Object.keys(conditions)) if (conditions[k] && !(k in w.marks)) w.marks[k] = Math.round(performance.now());
          if (painted.length < 2 || figures.length < 2 || !graph) return false;
          const heat = document.querySelector<HTMLElement>('[aria-label="Voltage heat map"]');
          return { at: performance.now(), nodes: Number(heat?.dataset.nodeCount ?? 0) };
        },
        undefined,
        { timeout: 60_000, polling: 'raf' },
      );
      const r = (await handle.jsonValue()) as { at: number; nodes: number };
      if (process.env.DEBUG_PAINT) {
        const detail = await page.evaluate(() => ({
          marks: (window as unknown as { marks?: Record<string, number> }).marks,
          res: performance
            .getEntriesByType('resource')
            .map((e) => e as PerformanceResourceTiming)
            .filter((e) => !e.name.includes('/assets/'))
            .map((e) => `${new URL(e.name).pathname} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ${e.encodedBodySize}`),
        }));
        process.stderr.write(`${JSON.stringify(detail, null, 1)}\n`);
      }
      ms.push(Math.round(r.at));
      heatMapNodes = r.nodes;
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { ms, heatMapNodes };
}
