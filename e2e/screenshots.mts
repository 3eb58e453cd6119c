// Takes screenshots of the main screens for a person to look at: npx tsx e2e/screenshots.mts [outDir]
// (default /tmp/vpp-screenshots). Not a test; screenshots stay out of the repository.

import fs from 'node:fs';
import { billingEndpoints } from '@vpp/shared/billing/endpoints';
import type { Page } from 'playwright-core';
import { signInToApi } from './support/api.ts';
import { launch, logIn, newPage } from './support/browser.ts';
import { startHelpDesk } from './support/help-desk.ts';
import { NO_FLEET, SMALL_FLEET, startServer } from './support/server.ts';

const out = process.argv[2] ?? '/tmp/vpp-screenshots';
fs.mkdirSync(out, { recursive: true });
// Transitions (the menu fades in over 150 ms) are finished before the picture is taken.
const shoot = (p: Page, name: string, fullPage = false) => p.screenshot({ path: `${out}/${name}.png`, animations: 'disabled', fullPage });

const srv = await startServer(SMALL_FLEET);
const b = await launch();
try {
  const p = await newPage(b, srv.url);
  await p.goto('/');
  await p.getByLabel('Username or email').waitFor();
  await shoot(p, 'login');
  await logIn(p, 'retailer', 'wrong password');
  await p.getByRole('alert').waitFor();
  await shoot(p, 'login-failed');
  await logIn(p, 'retailer');
  await p.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await shoot(p, 'dashboard');
  await p.getByRole('button', { name: 'User menu' }).click();
  await p.getByRole('menu').getByText('Logged in as').waitFor();
  await shoot(p, 'menu');
  await p.goto('/nothing-here');
  await p.getByText('This page could not be found.').waitFor();
  await shoot(p, '404');
  await p.goto('/user/settings');
  await p.getByRole('heading', { name: 'User Settings' }).waitFor();
  await shoot(p, 'settings');

  const perth = await newPage(b, srv.url, { timezoneId: 'Australia/Perth' });
  await perth.goto('/');
  await logIn(perth, 'retailer');
  await perth.getByRole('button', { name: 'Dismiss' }).waitFor({ timeout: 15000 });
  await shoot(perth, 'timezone-banner');

  const anon = await newPage(b, srv.url);
  await anon.goto('/password/anything');
  await anon.getByText('This page could not be found.').waitFor();
  await shoot(anon, '404-public');

  const p2 = await newPage(b, srv.url);
  await p2.goto('/');
  await logIn(p2, 'mfa');
  await p2.getByLabel('6-digit code').fill('000000');
  await p2.getByRole('button', { name: 'Verify' }).click();
  await p2.getByRole('alert').waitFor();
  await shoot(p2, 'mfa');

  const p3 = await newPage(b, srv.url);
  await p3.goto('/');
  await logIn(p3, 'newmfa');
  await p3.getByText('Set up two-factor').waitFor();
  await shoot(p3, 'mfa-setup');

  // The support page: the console's own form, filled in, then after sending.
  const s = await newPage(b, srv.url);
  await s.goto('/');
  await logIn(s, 'retailer');
  await s.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await s.goto('/support-issues?limit=10&offset=0');
  const form = s.getByRole('form', { name: 'Support request' });
  await form.waitFor();
  await s.getByText('You have not sent any support requests yet.').waitFor();
  await shoot(s, 'support-form', true);
  await form.getByRole('button', { name: 'Send Request' }).click();
  await form.getByText('Enter a subject.').waitFor();
  await shoot(s, 'support-form-invalid');
  await form.getByRole('textbox', { name: 'Subject' }).fill('Battery not charging');
  await form.getByRole('combobox', { name: 'Category' }).click();
  await s.getByRole('option', { name: 'A node' }).click();
  await form.getByRole('combobox', { name: 'Node' }).fill('RP');
  await s.getByRole('option').first().waitFor();
  await shoot(s, 'support-node-search');
  await s.getByRole('option').first().click();
  await form.getByRole('textbox', { name: 'Description' }).fill('The battery has stayed at 12% since yesterday morning, while the solar looks normal.');
  await form.getByRole('button', { name: 'Send Request' }).click();
  await s.getByRole('status').filter({ hasText: 'Request sent: SR-' }).waitFor();
  await s.getByRole('table', { name: 'Your support requests' }).getByRole('row').nth(1).waitFor();
  await shoot(s, 'support-sent', true);

  // Data exports: New Export's tiles, the operational form (refused, then filled), the node search,
  // the customer form, and the list with the finished export open.
  const x = await newPage(b, srv.url);
  await x.goto('/');
  await logIn(x, 'retailer');
  await x.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await x.goto('/analysis/export?limit=10&offset=0');
  await x.getByRole('button', { name: 'New Export' }).click();
  await x.getByRole('dialog', { name: 'New Data Export' }).waitFor();
  await shoot(x, 'exports-new');
  await x
    .getByRole('dialog', { name: 'New Data Export' })
    .getByRole('button', { name: /^Operational Data - VPP/ })
    .click();
  const xf = x.getByRole('dialog', { name: 'New Operational Data Export' });
  await xf.getByRole('button', { name: 'Begin Export' }).click();
  await x.getByText('Data Export Errors').waitFor();
  await shoot(x, 'exports-operational-errors');
  await xf.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
  await x.getByRole('option').first().click();
  const today = new Intl.DateTimeFormat('en-GB', { timeZone: 'Australia/Sydney', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date());
  const days = x.locator('.mantine-DatePickerInput-day').filter({ visible: true });
  for (const label of ['Start', 'End']) {
    await xf.getByLabel(label, { exact: true }).click();
    await x.getByRole('button', { name: today, exact: true }).filter({ visible: true }).click();
    await days.first().waitFor({ state: 'hidden' });
  }
  await xf.getByRole('button', { name: 'Select All Metrics' }).click();
  await shoot(x, 'exports-operational');
  await xf.getByRole('button', { name: 'Begin Export' }).click();
  await xf.waitFor({ state: 'hidden' });
  await shoot(x, 'exports-submitted');
  await x.getByRole('button', { name: 'New Export' }).click();
  await x
    .getByRole('dialog', { name: 'New Data Export' })
    .getByRole('button', { name: /^Operational Data - Individual Nodes/ })
    .click();
  await xf.getByRole('combobox', { name: 'Nodes' }).fill('1');
  await x.getByRole('option').first().click();
  await xf.getByRole('combobox', { name: 'Nodes' }).fill('2');
  await x.getByRole('option').first().waitFor();
  await shoot(x, 'exports-nodes');
  await xf.getByRole('button', { name: 'Cancel' }).click();
  await x.getByRole('button', { name: 'New Export' }).click();
  await x
    .getByRole('dialog', { name: 'New Data Export' })
    .getByRole('button', { name: /^Customer Data/ })
    .click();
  await x.getByRole('dialog', { name: 'New Customer Data Export' }).waitFor();
  await shoot(x, 'exports-customer');
  await x.getByRole('dialog', { name: 'New Customer Data Export' }).getByRole('button', { name: 'Cancel' }).click();
  await x
    .getByRole('button', { name: /completed$/i })
    .first()
    .waitFor({ timeout: 120000 });
  await x
    .getByRole('link', { name: /^Download / })
    .first()
    .waitFor();
  await shoot(x, 'exports', true);

  // The dashboard with a widget of each kind, and full screen, on a desktop and on a phone.
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    const d = await newPage(b, srv.url, { viewport: { width, height } });
    await d.goto('/');
    await logIn(d, 'retailer');
    await d.getByRole('button', { name: 'Add Widget' }).and(d.locator(':enabled')).waitFor({ timeout: 15000 });
    // Built on the desktop, seen again on the phone.
    if (width === 1440) {
      for (const name of ['Single Stat', 'Voltage Heat Map', 'Node Map', 'Data Graph']) {
        await d.getByRole('button', { name: 'Add Widget' }).click();
        await d.getByRole('menuitem', { name, exact: true }).click();
      }
      await d.getByRole('button', { name: 'Voltage Heat Map settings' }).click();
      await d.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
      await d.getByRole('option', { name: 'Greater Sydney' }).click();
      await d.keyboard.press('Escape');
      await d.getByText('Saving...').waitFor({ state: 'hidden' });
    }
    await d.getByRole('region', { name: 'Voltage heat map', exact: true }).waitFor();
    // Both maps painted: the heat map's hexagons and the node map's nodes.
    await d.getByTestId('heat-map-canvas').and(d.locator('[data-painted]')).waitFor();
    await d.getByRole('region', { name: 'Node Map', exact: true }).locator('[data-painted]').waitFor();
    await shoot(d, `dashboard-widgets-${width}`, true);
    await d.getByRole('button', { name: 'Full Screen' }).click();
    const full = d.getByRole('dialog', { name: 'Full screen dashboard' });
    await full.getByText('Single Stat: 1 of 4').waitFor();
    await shoot(d, `dashboard-full-screen-${width}`);
    await full.getByTestId('single-stat-value').waitFor();
    await shoot(d, `dashboard-full-screen-${width}`);
  }
} finally {
  await b.close();
  await srv.stop();
}

// The support page framing a help desk's form (SUPPORT_FORM_URL), on a server of its own.
const desk = await startHelpDesk();
const framedSrv = await startServer({ ...NO_FLEET, SUPPORT_FORM_URL: desk.formUrl });
const fb = await launch();
try {
  const f = await newPage(fb, framedSrv.url);
  await f.goto('/');
  await logIn(f, 'retailer');
  await f.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await f.goto('/support-issues?limit=10&offset=0');
  await f.frameLocator('iframe[title="Support contact form"]').getByRole('heading', { name: 'Help desk contact form' }).waitFor();
  await shoot(f, 'support-framed');
} finally {
  await fb.close();
  await framedSrv.stop();
  await desk.stop();
}

// Billing: the grid-credit monthly summary, a month's transactions, and the invoices, on a server
// whose fleet and history are large enough for the demo's evening dispatches (yesterday's at least)
// to be made and settled into grid credits.
const billingSrv = await startServer({ SIM_NODES: '40', SIM_HISTORY_DAYS: '2' });
const bb = await launch();
try {
  // The credits come once the backfill is done and the settlement job has run; the invoices once the
  // demo fleet has joined.
  const rita = await signInToApi(billingSrv.url, 'retailer');
  const deadline = Date.now() + 180_000;
  const month = await (async () => {
    for (;;) {
      const m = (await rita.call(billingEndpoints.monthly, {})).data.months.find((x) => x.eventCount > 0);
      if (m && (await rita.call(billingEndpoints.invoices, {})).data.invoices.length > 0) return m;
      if (Date.now() > deadline) throw new Error('no settled grid credits or no invoices in 180 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  const g = await newPage(bb, billingSrv.url);
  await g.goto('/');
  await logIn(g, 'retailer');
  await g.getByText('Welcome, Rita').waitFor({ timeout: 15000 });
  await g.goto('/gridcredits/billing?limit=10&offset=0');
  const summary = g.getByRole('table', { name: 'Monthly summary' });
  const label = new Date(`${month.date}-01T00:00:00Z`).toLocaleString('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const row = summary.getByRole('row', { name: new RegExp(label) });
  await row.waitFor();
  await g.getByRole('table', { name: 'Customers credited' }).getByRole('row').nth(1).waitFor();
  await shoot(g, 'billing-summary', true);
  // The month's row opens the search of its range.
  await row.click();
  await g.waitForURL(/\/gridcredits\/billing\/search\?start=/);
  await g.getByRole('table', { name: 'GridCredits transactions' }).getByRole('row').nth(1).waitFor();
  await g.getByRole('button', { name: 'Events CSV', exact: true }).waitFor();
  await shoot(g, 'billing-search', true);
  await g.goto('/my-reposit/billing?limit=10&offset=0');
  await g
    .getByRole('table', { name: 'Invoices' })
    .getByRole('button', { name: /^PDF of / })
    .first()
    .waitFor();
  await shoot(g, 'invoices', true);
} finally {
  await bb.close();
  await billingSrv.stop();
}
