// Dispatch screens in Chromium against the real server: the list and the detail of a dispatch made
// through the API, what an operator without fleet.dispatches.edit is offered, and a NETWORK user
// without fleet.dispatches.marketTrader seeing a dispatch without its cost.
import { endpointUrl } from '@vpp/shared/api/endpoint';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { powerMaxStep, powerMinStep } from '@vpp/shared/dispatches/rules';
import { formatDuration, formatPower } from '@vpp/shared/format';
import { passwordEndpoints } from '@vpp/shared/password/endpoints';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import type { Api } from './support/api.ts';
import { gone, reachPath, shown, signIn, useApp } from './support/fixtures.ts';
import { linkTo, waitForMail } from './support/mail.ts';

// Enough simulated nodes for each organisation's demo VPPs to hold batteries.
const app = useApp({ SIM_NODES: '30' });

const LIST = '/virtual-power-plants/dispatches?limit=10&offset=0';
let hoursAhead = 2;

/**
 * Makes a one-hour dispatch on the first of the caller's VPPs whose batteries can take one: half
 * its discharge limit (or charge limit, at an hour when the batteries are empty). Each call starts
 * two hours after the previous one, so that dispatches on the same nodes never overlap.
 */
async function makeDispatch(api: Api): Promise<{ id: number; vppId: number; vppName: string; realPowerP: number }> {
  const vpps = (await api.call(vppEndpoints.list, { query: { limit: 50, offset: 0 } })).result.filter((v) => v.type !== 'FCAS');
  const now = Math.floor(Date.now() / 1000);
  const startTime = now - (now % 300) + hoursAhead * 3600;
  hoursAhead += 2;
  for (const v of vpps) {
    const c = (await api.call(dispatchEndpoints.constraints, { params: { id: v.id }, query: { duration: 3600 } })).data;
    const realPowerP = c.realPowerPMin <= -0.2 ? powerMinStep(c.realPowerPMin / 2) : c.realPowerPMax >= 0.2 ? powerMaxStep(c.realPowerPMax / 2) : null;
    if (realPowerP === null) continue;
    const { id } = (
      await api.call(dispatchEndpoints.create, { body: { powerstation: v.id, startTime, duration: 3600, realPowerP, customerMessage: 'Thank you' } })
    ).data;
    return { id, vppId: v.id, vppName: v.name, realPowerP };
  }
  throw new Error('no VPP of this organisation can be dispatched');
}

describe('dispatches', () => {
  it('lists a dispatch made through the API and opens its detail with the request figures on a row click', async () => {
    const rita = await app.api('retailer');
    const d = await makeDispatch(rita);
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dispatches', exact: true }).click();
    await reachPath(page, LIST);
    const table = page.getByRole('table', { name: 'Dispatches' });
    const rows = table
      .getByRole('row')
      .filter({ hasText: d.vppName })
      .filter({ hasText: formatPower(d.realPowerP) });
    // The demo's past (completed) dispatches on the same VPP can have asked for the same power: this one is the upcoming one.
    const row = rows.filter({ hasText: 'Upcoming' });
    await shown(row);
    await shown(row.getByText('Upcoming', { exact: true }));
    await shown(row.getByText(formatDuration(3600), { exact: true }));
    await shown(page.getByText('All times are in Australia/Sydney'));
    await shown(page.getByRole('button', { name: 'New Dispatch' }));

    await row.click();
    await reachPath(page, `/virtual-power-plants/dispatches/${d.id}`);
    const request = page.getByRole('region', { name: 'Request' });
    await shown(request.getByText(`${formatPower(d.realPowerP)} (${d.realPowerP < 0 ? 'Discharge' : 'Charge'})`));
    await shown(request.getByText('1 h', { exact: true }));
    await shown(request.getByText('Greedy', { exact: true }));
    await shown(page.getByRole('region', { name: 'Current Response' }));
    await shown(page.getByText('Created by Rita Retailer', { exact: true }));
    // A retailer sees market data: the cost section with its type.
    await shown(page.getByRole('region', { name: 'Cost' }).getByText('Not started (forecast)'));

    // Cancel asks first, then lands on the list, where the dispatch reads Cancelled.
    await page.getByRole('button', { name: 'Cancel Dispatch' }).click();
    const confirm = await shown(page.getByRole('dialog', { name: 'Cancel Dispatch' }));
    await shown(confirm.getByText('Are you sure want to cancel this dispatch?', { exact: true }));
    await confirm.getByRole('button', { name: 'Cancel Dispatch' }).click();
    await reachPath(page, LIST);
    await shown(page.getByText('Dispatch successfully cancelled.'));
    await shown(rows.getByText('Cancelled', { exact: true }));
  });

  it('shows an operator without fleet.dispatches.edit the list, but no New Dispatch button and no Add New menu', async () => {
    const rita = await app.api('retailer');
    const d = await makeDispatch(rita);
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    await page.goto(LIST);
    await shown(
      page
        .getByRole('table', { name: 'Dispatches' })
        .getByRole('row')
        .filter({ hasText: formatPower(d.realPowerP) })
        .first(),
    );
    expect(await page.getByRole('button', { name: 'New Dispatch' }).count()).toBe(0);

    await page.goto(`/virtual-power-plants/manage/${d.vppId}?tab=MAP&limit=10&offset=0`);
    await shown(page.getByRole('heading', { name: d.vppName }));
    // The dispatch is among the VPP's events, linked to its detail.
    await shown(page.getByRole('table', { name: 'Upcoming and in-progress events' }).getByRole('link', { name: 'Dispatch' }).first());
    expect(await page.getByRole('button', { name: 'Add New' }).count()).toBe(0);

    // Rita, who may dispatch, is offered Dispatch in the menu; it opens the New Dispatch dialog.
    const ritaPage = await app.page();
    await signIn(ritaPage, 'retailer', 'Rita');
    await ritaPage.goto(`/virtual-power-plants/manage/${d.vppId}?tab=MAP&limit=10&offset=0`);
    await (await shown(ritaPage.getByRole('button', { name: 'Add New' }))).click();
    await (await shown(ritaPage.getByRole('menuitem', { name: 'Dispatch' }))).click();
    await shown(ritaPage.getByRole('dialog', { name: 'New Dispatch' }));
  });

  it('shows a NETWORK user without fleet.dispatches.marketTrader a dispatch without its cost or prices', async () => {
    const nathan = await app.api('network');
    const d = await makeDispatch(nathan);
    await nathan.createUser({
      givenName: 'Nora',
      surname: 'Network',
      email: 'nora@example.com',
      permissions: ['fleet.dispatches.any', 'fleet.powerstations.any'],
    });
    const mail = await waitForMail(app, 'nora@example.com', /Your new VPP Console account/);
    const token = new URL(linkTo(mail, '/password/reset'), app.url).searchParams.get('token') ?? '';
    const set = await fetch(`${app.url}${endpointUrl(passwordEndpoints.change, { query: { token } })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: `${DEMO_PASSWORD}-Nora`, confirmPassword: `${DEMO_PASSWORD}-Nora` }),
    });
    expect(set.status, await set.text()).toBe(200);

    const page = await app.page();
    await signIn(page, 'nora@example.com', 'Nora', `${DEMO_PASSWORD}-Nora`);
    await page.goto(LIST);
    await (
      await shown(
        page
          .getByRole('row')
          .filter({ hasText: formatPower(d.realPowerP) })
          .filter({ hasText: 'Upcoming' })
          .first(),
      )
    ).click();
    await reachPath(page, `/virtual-power-plants/dispatches/${d.id}`);
    await shown(page.getByRole('region', { name: 'Request' }).getByText(`${formatPower(d.realPowerP)} (${d.realPowerP < 0 ? 'Discharge' : 'Charge'})`));
    await shown(page.getByRole('region', { name: 'Current Response' }));
    expect(await page.getByRole('region', { name: 'Cost' }).count()).toBe(0);
    expect(await page.getByText('Sell price').count()).toBe(0);
    expect(await page.getByText('Not Authorized').count()).toBe(0);
    await gone(page.getByText('Failed to load dispatch cost.'));
  });
});
