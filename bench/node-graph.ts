// The node page's graph (issue 34 item 10): how long after its data arrives the graph is drawn, on
// a click from the fleet list and on a full load of the node's URL, in Debian's Chromium at
// 1440×900. Both instants are taken in the page (performance.now()): the end of the response of
// `GET /api/nodes/{id}/data`, and the first canvas under the "Monitoring graph" image.
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { chromium, type Page } from 'playwright-core';

export interface NodeGraphTimes {
  /** Milliseconds from the data's arrival to the drawn graph, per run. */
  click: number[];
  fullLoad: number[];
  /** Milliseconds from the click (or navigation start) to the drawn graph, per run. */
  clickTotal: number[];
  fullLoadTotal: number[];
}

// Runs in the page before its scripts: records when the graph's data arrives and when it is drawn.
const WATCH = () => {
  const w = window as unknown as { __graph: { dataAt?: number; drawnAt?: number } };
  w.__graph = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceResourceTiming[])
      if (w.__graph.dataAt === undefined && /\/api\/nodes\/\d+\/data\?/.test(e.name)) w.__graph.dataAt = e.responseEnd;
  }).observe({ type: 'resource', buffered: true });
  new MutationObserver((_, obs) => {
    if (document.querySelector('[aria-label="Monitoring graph"] canvas')) {
      w.__graph.drawnAt = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

async function graphTimes(page: Page, startedAt: number): Promise<[number, number]> {
  await page.waitForFunction(() => (window as unknown as { __graph: { drawnAt?: number } }).__graph?.drawnAt !== undefined, undefined, {
    timeout: 60_000,
  });
  const g = await page.evaluate(() => (window as unknown as { __graph: { dataAt: number; drawnAt: number } }).__graph);
  return [Math.round(g.drawnAt - g.dataAt), Math.round(g.drawnAt - startedAt)];
}

export async function measureNodeGraph(url: string, chromiumPath: string, runs = 5): Promise<NodeGraphTimes> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const times: NodeGraphTimes = { click: [], fullLoad: [], clickTotal: [], fullLoadTotal: [] };
  try {
    const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Username or email').fill('retailer');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.locator('altcha-widget').getByText("I'm not a robot").click();
    await page.getByRole('button', { name: 'Log In' }).and(page.locator(':enabled')).click({ timeout: 30_000 });
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor({ timeout: 30_000 });
    await context.addInitScript(WATCH);
    for (let i = 0; i < runs; i++) {
      // From the list: the node page's code and its data load on the click.
      await page.goto('/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0');
      const row = page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1);
      await row.waitFor({ timeout: 30_000 });
      await page.evaluate(WATCH);
      const clickAt = await page.evaluate(() => performance.now());
      await row.click();
      const [afterData, total] = await graphTimes(page, clickAt);
      times.click.push(afterData);
      times.clickTotal.push(total);
      // A full load of the node's URL (the watch installed before the app's scripts run).
      const nodeUrl = page.url();
      await page.goto('about:blank');
      await page.goto(nodeUrl);
      const [afterLoad, loadTotal] = await graphTimes(page, 0);
      times.fullLoad.push(afterLoad);
      times.fullLoadTotal.push(loadTotal);
    }
  } finally {
    await browser.close();
  }
  return times;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
