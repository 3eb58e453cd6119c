// Billing in Chromium against the real server: a retailer searches a month of grid credits that has
// events and downloads both CSVs (through single-use links), and opens an invoice's PDF.
import fs from 'node:fs';
import { BILLING_MESSAGES, billingEndpoints } from '@vpp/shared';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp({ SIM_NODES: '20' });

/** Clicks a button that starts a download and answers the downloaded file's name and text. */
async function download(page: Page, button: string): Promise<{ name: string; text: string; url: string }> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByRole('button', { name: button, exact: true }).click()]);
  return { name: (file as Download).suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8'), url: file.url() };
}

describe('grid-credit billing', () => {
  it('searches a month with events and downloads its Events CSV and Summary CSV', async () => {
    const rita = await app.api('retailer');
    const { months } = (await rita.call(billingEndpoints.monthly, {})).data;
    const month = months.find((m) => m.eventCount > 0);
    if (!month) throw new Error('the demo has no month of grid credits with events');

    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Billing', exact: true }).click();
    await reachPath(page, '/gridcredits/billing');
    const summary = await shown(page.getByRole('table', { name: 'Monthly summary' }));
    const label = new Date(`${month.date}-01T00:00:00Z`).toLocaleString('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    await summary.getByRole('row', { name: new RegExp(label) }).click();
    await page.waitForURL(/\/gridcredits\/billing\/search\?start=\d{4}-\d{2}-\d{2}&end=\d{4}-\d{2}-\d{2}$/);
    const url = new URL(page.url());
    const start = url.searchParams.get('start') ?? '';
    const end = url.searchParams.get('end') ?? '';
    expect(start).toBe(month.start);

    const table = await shown(page.getByRole('table', { name: 'GridCredits transactions' }));
    await shown(table.getByRole('row').nth(1));
    const { items, total } = (await rita.call(billingEndpoints.items, { query: { start, end, limit: 200, offset: 0 } })).data;
    expect(total).toBeGreaterThan(0);
    await shown(table.getByRole('row', { name: new RegExp(items[0].nmi) }).first());

    // Events CSV: a header row, and the line items of the range (the first as the API gives it).
    const events = await download(page, 'Events CSV');
    expect(events.url).toContain('token=');
    const eventLines = events.text.trim().split(/\r?\n/);
    expect(eventLines[0].toLowerCase()).toMatch(/^nmi,day,/);
    expect(eventLines).toHaveLength(total + 1);
    expect(eventLines.some((l) => l.startsWith(`${items[0].nmi},${items[0].day},`))).toBe(true);

    // Summary CSV: one row per customer of the month.
    const summaryCsv = await download(page, 'Summary CSV');
    expect(summaryCsv.url).toContain(`start=${month.start}`);
    const summaryLines = summaryCsv.text.trim().split(/\r?\n/);
    expect(summaryLines[0].toLowerCase()).toMatch(/^nmi,/);
    expect(summaryLines.length).toBeGreaterThan(1);
    expect(summaryLines.some((l) => l.startsWith(`${items[0].nmi},`))).toBe(true);

    // Each link worked once: opened again, it is refused.
    const again = await fetch(`${app.url}${new URL(events.url).pathname}${new URL(events.url).search}`);
    expect(again.status).toBe(401);
  });

  it('says when a range has no transactions, and offers no CSV', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/gridcredits/billing/search?start=2001-01-01&end=2001-01-31');
    await shown(page.getByText(BILLING_MESSAGES.noTransactions));
    expect(await page.getByRole('button', { name: 'Events CSV' }).count()).toBe(0);
  });
});

describe('invoices', () => {
  it('opens an invoice PDF in a new tab', async () => {
    const rita = await app.api('retailer');
    const [latest] = (await rita.call(billingEndpoints.invoices, {})).data.invoices;
    if (!latest) throw new Error('the demo has no invoice');
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Invoices', exact: true }).click();
    await reachPath(page, '/my-reposit/billing?limit=10&offset=0');
    const table = await shown(page.getByRole('table', { name: 'Invoices' }));
    const first = await shown(table.getByRole('row').nth(1));
    await shown(first.getByText(latest.number));
    const pdf = page.context().waitForEvent('response', { predicate: (r) => /\/invoices\/\d+\/[^/]+\.pdf\?token=/.test(r.url()), timeout: 15_000 });
    await first.getByRole('button', { name: `Download ${latest.number}` }).click();
    const res = await pdf;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/pdf/);
    // The body, fetched the way the tab did it, cannot be fetched again: the link was single-use.
    const body = await res.body().catch(() => null);
    if (body) expect(body.subarray(0, 4).toString('latin1')).toBe('%PDF');
    else {
      const again = await fetch(res.url());
      expect(again.status).toBe(401);
    }
  });
});
