// WCAG 2.2 AA on the screens an operator lives in: axe-core run on each page once it has loaded
// its data, failing on any critical or serious violation. An exception is allowed only when listed
// here with its reason.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** Rules excused, with why (none today). */
const EXCEPTIONS: Record<string, string> = {};

async function audit(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return result.violations
    .filter((v) => (v.impact === 'critical' || v.impact === 'serious') && !(v.id in EXCEPTIONS))
    .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.html.slice(0, 160)) }));
}

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  it('has no serious violation on the login page', async () => {
    const page = await app.page();
    await page.goto('/');
    await shown(page.getByRole('heading', { name: 'Log in' }));
    expect(await audit(page)).toEqual([]);
  });

  it('has no serious violation on the fleet list, node detail, VPP list, settings, users, billing, invoices and data export pages', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    const screens: [string, () => Promise<unknown>][] = [
      ['/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0', () => shown(page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1))],
      ['/virtual-power-plants/manage?limit=10&offset=0', () => shown(page.getByRole('heading', { name: 'Virtual Power Plants', level: 1 }))],
      ['/user/settings', () => shown(page.getByRole('heading', { name: 'User Settings' }))],
      ['/my-reposit/users?limit=10&offset=0', () => shown(page.getByRole('table').getByRole('row').nth(1))],
      // The demo has invoices but no settled events yet: the summary shows its empty text.
      ['/gridcredits/billing', () => shown(page.getByRole('table', { name: 'Monthly summary' }))],
      ['/gridcredits/billing/search', () => shown(page.getByRole('button', { name: 'Search', exact: true }))],
      ['/my-reposit/billing?limit=10&offset=0', () => shown(page.getByRole('table', { name: 'Invoices' }).getByRole('row').nth(1))],
      // The demo's retailer has finished exports: the newest shows open with its files.
      ['/analysis/export?limit=10&offset=0', () => shown(page.getByRole('link', { name: /^Download / }).first(), 60_000)],
    ];
    const found: Record<string, unknown> = {};
    for (const [path, loaded] of screens) {
      await page.goto(path);
      await loaded();
      const v = await audit(page);
      if (v.length) found[path] = v;
    }
    // Node detail: the first node of the list.
    await page.goto('/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0');
    const first = page.getByRole('table', { name: 'Nodes' }).getByRole('row').nth(1);
    await (await shown(first)).click();
    await page.waitForURL(/\/fleet-monitoring\/nodes\/\d+/);
    await shown(page.getByRole('tab', { name: 'Monitoring' }));
    const v = await audit(page);
    if (v.length) found['node detail'] = v;
    expect(found).toEqual({});
  });
});
