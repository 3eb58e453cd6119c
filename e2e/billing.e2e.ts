// Billing in Chromium against the real server: a retailer searches a month of grid credits that has
// events and downloads both CSVs (through single-use links), and opens an invoice's PDF.
//
// Grid credits come only from settled events, and a dispatch settles after it ends: the server's
// clock runs RATE times fast (as the crash tests run it) so that a five-minute dispatch made through
// the API settles within a minute. The browser's clock is set to the server's when the page opens,
// so that its "today" is the server's whatever the hour the test runs at.
import fs from 'node:fs';
import os from 'node:os';
import { billingEndpoints } from '@vpp/shared/billing/endpoints';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { powerMaxStep, powerMinStep } from '@vpp/shared/dispatches/rules';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Api } from './support/api.ts';
import { eventually, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const RATE = 30;
const ANCHOR = Math.floor(Date.now() / 1000);
/** The server's clock, epoch seconds. */
const clock = () => Math.floor(ANCHOR + (Date.now() / 1000 - ANCHOR) * RATE);

const app = useApp({
  SIM_NODES: '16',
  SIM_INTERVAL_S: '30',
  CLOCK_RATE: String(RATE),
  CLOCK_ANCHOR: String(ANCHOR),
  SETTLEMENT_DELAY_S: '60',
  // A session outlives the test at this clock.
  ACCESS_TOKEN_TTL_S: '86400',
});

/** A page whose clock reads the server's (Date only: timers run as usual). */
async function pageAtServerTime(): Promise<Page> {
  const page = await app.page();
  await page.clock.setFixedTime(clock() * 1000);
  return page;
}

/** Makes a five-minute dispatch on the first of the caller's VPPs whose batteries can take one, starting within ten minutes of the server's clock. */
async function makeDispatch(api: Api): Promise<number> {
  const vpps = (await api.call(vppEndpoints.list, { query: { limit: 50, offset: 0 } })).result.filter((v) => v.type !== 'FCAS');
  const now = clock();
  const startTime = now - (now % 300) + 600;
  for (const v of vpps) {
    const c = (await api.call(dispatchEndpoints.constraints, { params: { id: v.id }, query: { duration: 300 } })).data;
    const realPowerP = c.realPowerPMin <= -0.2 ? powerMinStep(c.realPowerPMin / 2) : c.realPowerPMax >= 0.2 ? powerMaxStep(c.realPowerPMax / 2) : null;
    if (realPowerP === null) continue;
    return (await api.call(dispatchEndpoints.create, { body: { powerstation: v.id, startTime, duration: 300, realPowerP, customerMessage: 'Thank you' } })).data
      .id;
  }
  throw new Error('no VPP of this organisation can be dispatched');
}

/** Clicks a button that starts a download and answers the downloaded file's text and link. */
async function download(page: Page, button: string): Promise<{ text: string; url: string }> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByRole('button', { name: button, exact: true }).click()]);
  return { text: fs.readFileSync(await file.path(), 'utf8'), url: file.url() };
}

describe('grid-credit billing', () => {
  it('searches a month with events and downloads its Events CSV and Summary CSV', { timeout: 240_000 }, async () => {
    const rita = await app.api('retailer');
    await makeDispatch(rita);
    // Settled about 16 minutes of the server's clock later: its line items are then in a month.
    await eventually(async () => (await rita.call(billingEndpoints.monthly, {})).data.months.some((m) => m.eventCount > 0), 120_000).toBe(true);
    const { months } = (await rita.call(billingEndpoints.monthly, {})).data;
    const month = months.find((m) => m.eventCount > 0);
    if (!month) throw new Error('no month of grid credits with events');

    const page = await pageAtServerTime();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Billing', exact: true }).click();
    await reachPath(page, '/gridcredits/billing?limit=10&offset=0');
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
    // Other dispatches may settle meanwhile: the file holds the items of the range as of its download.
    const after = (await rita.call(billingEndpoints.items, { query: { start, end, limit: 1, offset: 0 } })).data.total;
    expect(eventLines.length - 1).toBeGreaterThanOrEqual(total);
    expect(eventLines.length - 1).toBeLessThanOrEqual(after);
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
    const page = await pageAtServerTime();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/gridcredits/billing/search?start=2001-01-01&end=2001-01-31');
    await shown(page.getByText(BILLING_MESSAGES.noTransactions));
    expect(await page.getByRole('button', { name: 'Events CSV' }).count()).toBe(0);
  });
});

describe('invoices', () => {
  it('downloads an invoice PDF', async () => {
    const rita = await app.api('retailer');
    // The demo issues its invoices once the demo fleet has joined, which may be after the server answers.
    await eventually(async () => (await rita.call(billingEndpoints.invoices, {})).data.invoices.length, 60_000).toBeGreaterThan(0);
    const [latest] = (await rita.call(billingEndpoints.invoices, {})).data.invoices;
    const page = await pageAtServerTime();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Invoices', exact: true }).click();
    await reachPath(page, '/my-reposit/billing?limit=10&offset=0');
    const table = await shown(page.getByRole('table', { name: 'Invoices' }));
    const first = await shown(table.getByRole('row').nth(1));
    await shown(first.getByText(latest.number));
    // The PDF comes as an attachment through the single-use link; its reply's headers are checked on the way.
    const reply = page.waitForResponse((r) => new URL(r.url()).pathname === latest.downloadURL, { timeout: 15_000 });
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      first.getByRole('button', { name: `PDF of ${latest.number}` }).click(),
    ]);
    const res = await reply;
    expect(new URL(res.url()).searchParams.get('token')).toBeTruthy();
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/pdf/);
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const body = fs.readFileSync(await file.path());
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(body.subarray(-8).toString('latin1')).toContain('%%EOF');
    fs.writeFileSync(`${os.tmpdir()}/vpp-e2e-invoice.pdf`, body);
    // The link worked once.
    expect((await fetch(res.url())).status).toBe(401);
  });
});
