// The New Dispatch modal against the real server in demo mode (spec 3 §2.3, §4.1): the retailer picks
// a VPP with batteries, sets a discharge, edits the customer message, confirms and executes, lands
// on the new dispatch's page with its request, and finds it in the list.
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { formatPower } from '@vpp/shared/format';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import { eventually, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** A VPP of the demo whose batteries can discharge now (at night, from the backup reserve the households keep). */
async function vppWithBatteries(): Promise<{ id: number; name: string }> {
  const rita = await app.api('retailer');
  const { result } = await rita.call(vppEndpoints.list, { query: { limit: 100, offset: 0, type: 'STATIC,DYNAMIC' } });
  for (const v of result) {
    const c = await rita.call(dispatchEndpoints.constraints, { params: { id: v.id }, query: {} });
    if (c.data.realPowerPMin < 0) return v;
  }
  throw new Error('no demo VPP has a battery that can discharge');
}

describe('New Dispatch', () => {
  it('executes a discharge through the edit, message and confirmation views and opens the new dispatch', async () => {
    const vpp = await vppWithBatteries();
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/virtual-power-plants/dispatches?limit=10&offset=0');
    await (await shown(page.getByRole('button', { name: 'New Dispatch' }))).click();

    const edit = await shown(page.getByRole('dialog', { name: 'New Dispatch' }));
    // Lockout by default: no customer message, no strategy.
    await shown(edit.getByText('No customer message is sent for a lockout or a power-factor-only dispatch.'));
    await edit.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.name, exact: true }).click();
    // The slider opens once the VPP's constraints are in; Home takes it to its minimum, the most discharge.
    const power = edit.getByRole('slider', { name: 'Power (kW)' });
    await eventually(() => power.getAttribute('aria-disabled')).not.toBe('true');
    await power.focus();
    // The prediction with the discharge applied: the graph is drawn from it before the drag below.
    const discharged = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/predictions') && Number(url.searchParams.get('dispatchRealPowerP')) < 0 && r.ok();
    });
    await page.keyboard.press('Home');
    await discharged;
    await eventually(async () => Number(await power.getAttribute('aria-valuenow'))).toBeLessThan(0);
    const kw = Number(await power.getAttribute('aria-valuenow'));
    // A discharge offers the strategy (the retailer holds fleet.dispatches.strategy), greedy by default.
    await eventually(() => edit.getByRole('radio', { name: 'Greedy' }).isChecked()).toBe(true);
    // Dragging across the prediction graph chooses the window, both ends on quarter hours.
    const plot = await shown(edit.getByRole('img', { name: 'Dispatch prediction' }).locator('.u-over'));
    // The modal may still be settling its layout (a new control, a scroll bar): the box once laid out.
    await eventually(() => plot.boundingBox()).not.toBeNull();
    const box = await plot.boundingBox();
    if (!box) throw new Error('the prediction graph has no box');
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.85, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const startTime = edit.getByRole('combobox', { name: 'Start time' });
    const endTime = edit.getByRole('combobox', { name: 'End time' });
    await eventually(() => endTime.inputValue()).toMatch(/^\d\d:(00|15|30|45)( \(next day\))?$/);
    expect(await startTime.inputValue()).toMatch(/^\d\d:(00|15|30|45)$/);
    expect(await endTime.inputValue()).not.toBe('');

    await edit.getByRole('button', { name: 'Edit message' }).click();
    const message = await shown(page.getByRole('dialog', { name: 'Customer Message' }));
    await shown(message.getByRole('figure', { name: 'Phone preview' }));
    await message.getByRole('textbox', { name: 'Title' }).fill('Evening peak');
    await message.getByRole('textbox', { name: 'Message' }).fill('Your battery will help the grid this evening.');
    await shown(message.getByRole('figure', { name: 'Phone preview' }).getByText('Evening peak'));
    await message.getByRole('button', { name: 'Save Message' }).click();
    await shown(page.getByRole('dialog', { name: 'New Dispatch' }).getByText('Customer message: Evening peak'));

    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirm = await shown(page.getByRole('dialog', { name: 'Confirm Dispatch' }));
    await shown(confirm.getByText('Are you sure you want to execute this dispatch?'));
    await shown(confirm.getByRole('table', { name: 'Dispatch summary' }).getByText(vpp.name));
    await shown(confirm.getByText(`Discharge ${Math.abs(kw).toFixed(1)} kW`));

    const [reply] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/dispatch'),
      confirm.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(reply.status()).toBe(200);
    const { data } = (await reply.json()) as { status: string; data: { id: number } };
    await reachPath(page, `/virtual-power-plants/dispatches/${data.id}`);
    await shown(page.getByText('Dispatch successfully executed'));

    // What was stored is what the views showed.
    const rita = await app.api('retailer');
    const stored = await rita.call(dispatchEndpoints.detail, { params: { id: data.id } });
    expect(stored.data.powerstation.id).toBe(vpp.id);
    expect(stored.data.request.realPowerP).toBe(kw);
    expect(stored.data.request.startTime % 900).toBe(0);
    expect(stored.data.request.duration % 900).toBe(0);
    expect(stored.data.request.duration).toBeLessThan(14_400);
    expect(stored.data.customerMessage).toEqual({ title: 'Evening peak', text: 'Your battery will help the grid this evening.' });

    // The detail shows the request as executed; the list holds it, upcoming.
    await shown(page.getByRole('region', { name: 'Request' }).getByText(`${formatPower(kw)} (Discharge)`));
    await shown(page.getByText('Created by Rita Retailer', { exact: true }));
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dispatches', exact: true }).click();
    const row = page
      .getByRole('table', { name: 'Dispatches' })
      .getByRole('row')
      .filter({ hasText: vpp.name })
      .filter({ hasText: formatPower(kw) });
    await shown(row.getByText('Upcoming', { exact: true }));
  });
});
