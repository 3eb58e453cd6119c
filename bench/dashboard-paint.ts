// The dashboard painted in Chromium (issue 16): a user's dashboard of five widgets (the voltage
// heat map of a VPP, the fleet's node map, a deployment count, a VPP's live solar power and the
// fleet's Data Graph), timed from the page's navigation (issue 30 item 2) to the grid and both
// figures painted (`dashboardPaintedP50Ms`), and to both maps drawn with their data, MapLibre's
// first idle with features (`dashboardMapsP50Ms`); the graph's time is printed beside them. Needs
// the built web app (packages/web/dist), served by the app under test.
import type { DashboardBody } from '@vpp/shared/dashboard/layout';
import { chromium, type Page } from 'playwright-core';

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

/** One opening of the dashboard: milliseconds from navigation to each stage. */
export interface DashboardPaint {
  /** The grid and both Single Stats' figures. */
  painted: number;
  /** Both maps drawn with their data. */
  maps: number;
  /** The Data Graph drawn (or saying it has no data), scrolled to once the rest had painted when it was below the window. */
  graph: number;
}

/** A first visit (an empty browser) and the same browser's next visit. */
export type DashboardVisits = DashboardPaint & { returning: DashboardPaint };

/**
 * Saves the five widgets as the user's dashboard, then opens it `runs` times in a fresh page
 * (1440×900, signed in by the stored token, a browser context of its own: an empty HTTP cache),
 * then reloads it (the same browser's next visit: its HTTP cache and the dashboard it kept), and
 * answers each run's stages of both visits and the nodes the heat map drew. The server keeps a map's view for 30 s,
 * so the first run makes the views and the others mostly find them made.
 */
export async function measureDashboardPaint(
  base: string,
  token: string,
  vpp: number,
  runs: number,
): Promise<{ runs: DashboardVisits[]; heatMapNodes: number }> {
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
  const out: DashboardVisits[] = [];
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
      // Until all five show their data, the stages as each is first seen (polled every frame).
      const stages = async (): Promise<DashboardPaint> => {
        const handle = await waitWithMarks(page, () =>
          page.waitForFunction(
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
              if (painted.length < 2 || figures.length < 2) return false;
              // The graph below the window loads when scrolled to (issue 30 item 2): once the rest has
              // painted, the page scrolls to it, as the user would.
              if (!graph) {
                region?.scrollIntoView();
                return false;
              }
              const heat = document.querySelector<HTMLElement>('[aria-label="Voltage heat map"]');
              const m = w.marks;
              return { painted: Math.max(m.grid, m.fig2), maps: m.maps2, graph: m.graph, nodes: Number(heat?.dataset.nodeCount ?? 0) };
            },
            undefined,
            { timeout: 60_000, polling: 'raf' },
          ),
        );
        const r = (await handle.jsonValue()) as DashboardPaint & { nodes: number };
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
        heatMapNodes = r.nodes;
        return { painted: r.painted, maps: r.maps, graph: r.graph };
      };
      await page.goto('/');
      const first = await stages();
      // The same browser again: its HTTP cache and the layout it kept.
      await page.reload();
      out.push({ ...first, returning: await stages() });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { runs: out, heatMapNodes };
}

/** `wait()`, and when it fails, the stages reached by then and each widget's text on the way out. */
async function waitWithMarks<T>(page: Page, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (err) {
    const seen = await page
      .evaluate(() => ({
        marks: (window as unknown as { marks?: Record<string, number> }).marks,
        widgets: Array.from(document.querySelectorAll('[data-widget]')).map((e) => `${e.getAttribute('data-widget')}: ${e.textContent?.slice(0, 120)}`),
      }))
      .catch(() => null);
    throw new Error(`The dashboard did not paint: ${JSON.stringify(seen)}`, { cause: err });
  }
}

/** The runs' stages as the benches print them: grid and figures, maps, graph, in ms. */
export function describePaint(runs: readonly DashboardVisits[]): string {
  const list = (k: keyof DashboardPaint, next = false) => runs.map((r) => Math.round((next ? r.returning : r)[k])).join(', ');
  const visit = (next: boolean) => `grid and figures ${list('painted', next)} ms, both maps ${list('maps', next)} ms, graph ${list('graph', next)} ms`;
  return `first visit: ${visit(false)}; next visit: ${visit(true)}`;
}
