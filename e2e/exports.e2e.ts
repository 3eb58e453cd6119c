// Data exports in Chromium against the real server and its simulated fleet: a retailer starts a VPP
// export of meter power, watches it go from Submitted to Completed in the accordion (the list polls
// every 5 s while it runs), and downloads its file through the signed link; then the node page's
// Export CSV link opens the node export prefilled by its redirect query, and Cancel goes back.
//
// The fleet backfills a day of history when it starts: the export covers yesterday and today (in the
// account's zone, Australia/Sydney, as is the browser's), and waits until the history is in.
import fs from 'node:fs';
import { exportEndpoints } from '@vpp/shared/exports/endpoints';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { epochToLocalDate, localDateToEpoch, shiftPeriod } from '@vpp/shared/time';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const ZONE = 'Australia/Sydney';
/** How often the simulated fleet reports: an hour's value settles once its last report is in. */
const SIM_INTERVAL_S = 30;
const app = useApp({ SIM_INTERVAL_S: String(SIM_INTERVAL_S) });

/** '25 November 2026': how the date pickers name a day. */
const dayName = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Picks a day in the date picker labelled `label`, going back a month when the day is in the one before. */
async function pickDay(page: Page, label: string, date: string) {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  const days = page.locator('.mantine-DatePickerInput-day').filter({ visible: true });
  await shown(days.first());
  // The other picker's calendar stays in the page, hidden.
  const day = page.getByRole('button', { name: dayName(date), exact: true }).filter({ visible: true });
  if ((await day.count()) === 0) await page.getByRole('button', { name: 'Previous month' }).filter({ visible: true }).click();
  await day.click();
  // Its calendar closes (with a transition) before another opens.
  await eventually(() => days.count()).toBe(0);
}

/** Splits a CSV file the server wrote (no field of these files is quoted). */
function readCsv(text: string): string[][] {
  expect(text).not.toContain('"');
  return text
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));
}

describe('data exports', () => {
  it('starts a VPP export, watches it complete and downloads its file, whose values are the node graphs’', { timeout: 240_000 }, async () => {
    const rita = await app.api('retailer');
    // Greater Sydney: its nodes all keep the account's zone, so the export's hours are the node graphs' hours.
    const vpp = (await rita.call(vppEndpoints.list, { query: { limit: 50, offset: 0 } })).result.find((v) => v.name === 'Greater Sydney');
    if (!vpp || vpp.nodes === 0) throw new Error('the demo retailer has no Greater Sydney VPP with nodes');
    const nowS = Math.floor(Date.now() / 1000);
    const today = epochToLocalDate(nowS, ZONE);
    const yesterday = epochToLocalDate(shiftPeriod(localDateToEpoch(today, ZONE), 'day', -1, ZONE), ZONE);
    const start = localDateToEpoch(yesterday, ZONE);
    const hourly = (id: number, from: number, to: number) =>
      rita.call(nodeEndpoints.series, { params: { id }, query: { metrics: 'meterPower', start: from, end: to, interval: 3600 } });
    // The backfill runs forwards to the present: once a node has data from the last quarter of an hour, it is done.
    const [first] = (await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } })).deployments;
    const recent = async () => {
      const { series } = await rita.call(nodeEndpoints.series, {
        params: { id: first.id },
        query: { metrics: 'meterPower', start: nowS - 1800, end: nowS, interval: 300 },
      });
      return Object.entries(series).some(([ts, p]) => Number(ts) >= nowS - 900 && p.meterPower !== null);
    };
    await eventually(recent, 120_000).toBe(true);
    // The demo's two finished exports are asked for once the history is in: wait for them, so that the export made below is the newest.
    await eventually(async () => (await rita.call(exportEndpoints.list, { query: { limit: 10, offset: 0 } })).data.total, 60_000).toBeGreaterThanOrEqual(2);

    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: M.pageTitle, exact: true }).click();
    await reachPath(page, '/analysis/export?limit=10&offset=0');
    await shown(page.getByRole('heading', { name: M.pageTitle }));

    await page.getByRole('button', { name: M.newExport }).click();
    await page.getByRole('dialog', { name: M.chooseTitle }).getByRole('button', { name: M.tileVpp }).click();
    const form = await shown(page.getByRole('dialog', { name: M.operationalTitle }));
    await form.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.name, exact: true }).click();
    await pickDay(page, 'Start', yesterday);
    await pickDay(page, 'End', today);
    await form.getByRole('combobox', { name: 'Metrics' }).click();
    await page.getByRole('option', { name: 'Meter Power', exact: true }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: M.beginExport }).click();
    await shown(page.getByText(M.submittedTitle));
    await page.getByRole('dialog', { name: M.operationalTitle }).waitFor({ state: 'hidden' });

    // The new export is the newest (the demo has finished ones already), open; it completes while the page polls.
    const mine = (await rita.call(exportEndpoints.list, { query: { limit: 10, offset: 0 } })).data.tasks.find(
      (t) => t.ts >= nowS && t.task_info.powerstation === vpp.id && t.metrics.join() === 'meter_power',
    );
    if (!mine) throw new Error('the export just submitted is not in the list');
    const entry = page.locator('.mantine-Accordion-item').filter({ hasText: mine.reference_id });
    const control = entry.getByRole('button', { name: /completed$/i });
    await shown(control, 120_000);
    expect(await control.getAttribute('aria-expanded')).toBe('true');
    await shown(entry.getByText(M.blankFieldsNote));
    const link = entry.getByRole('link', { name: /^Download meter-power-.*\.csv$/ });
    await shown(link);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), link.click()]);
    expect(new URL(download.url()).searchParams.get('token')).toBeTruthy();
    const rows = readCsv(fs.readFileSync(await download.path(), 'utf8'));

    // One column per node of the VPP, one row per hour from yesterday's midnight.
    const [header, ...data] = rows;
    expect(header.slice(0, 2)).toEqual(['timestamp', 'ts']);
    expect(header.length - 2).toBe(vpp.nodes);
    for (const h of header.slice(2)) expect(h).toMatch(/^\S+ \(node \d+\)$/);
    expect(data.length).toBeGreaterThan(0);
    expect(Number(data[0][1])).toBe(start);
    for (const [i, r] of data.entries()) {
      expect(r).toHaveLength(header.length);
      expect(Number(r[1])).toBe(start + i * 3600);
    }
    // The first node's column holds what its graph shows for the same hours: those over at least two
    // reports before the export was made (an hour that ended just before can still gain a late report).
    const id = Number(/\(node (\d+)\)$/.exec(header[2])?.[1]);
    const { series } = await hourly(id, start, start + data.length * 3600);
    const over = data.filter((r) => Number(r[1]) + 3600 <= mine.ts - 2 * SIM_INTERVAL_S);
    expect(over.filter((r) => r[2] !== '').length).toBeGreaterThan(0);
    for (const r of over) {
      const graph = series[r[1]]?.meterPower ?? null;
      if (r[2] === '') expect(graph).toBeNull();
      else expect(Number(r[2])).toBe(graph);
    }
  });

  it('opens the node export from the node page with its redirect query, and Cancel goes back there', async () => {
    const rita = await app.api('retailer');
    const [node] = (await rita.call(nodeEndpoints.list, { query: { limit: 1, offset: 0 } })).deployments;
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto(`/fleet-monitoring/nodes/${node.id}`);
    await page.getByRole('link', { name: 'Export CSV' }).click();
    await page.waitForURL((u) => u.pathname === '/analysis/export' && u.searchParams.get('deploymentId') === String(node.id));
    const q = new URL(page.url()).searchParams;
    const today = epochToLocalDate(Date.now() / 1000, node.timezone);
    expect(q.get('start')).toBe(today);
    expect(q.get('end')).toBe(today);
    // The graph shows solar and battery by default; SGA only when switched on.
    expect([q.get('solar'), q.get('battery'), q.get('sga')]).toEqual(['true', String(node.hasBattery), 'false']);

    const form = await shown(page.getByRole('dialog', { name: M.operationalTitle }));
    await shown(form.getByRole('region', { name: 'Selected nodes' }).getByText(new RegExp(`^${node.id} · `)));
    const dd = today.split('-').reverse().join('/');
    await eventually(() => form.getByLabel('Start', { exact: true }).textContent()).toBe(dd);
    expect(await form.getByLabel('End', { exact: true }).textContent()).toBe(dd);
    // The metrics its graph showed are chosen (no SGA: it was off).
    const chosen = await form.locator('.mantine-Pill-label').allTextContents();
    expect(chosen).toContain('Meter Power');
    expect(chosen).toContain('Solar Power');
    expect(chosen).not.toContain('Meter SGA Power');
    expect(chosen.includes('Battery Power')).toBe(node.hasBattery);

    await form.getByRole('button', { name: M.cancel }).click();
    await page.waitForURL((u) => u.pathname === `/fleet-monitoring/nodes/${node.id}`);
    await shown(page.getByRole('link', { name: 'Export CSV' }));
  });
});
