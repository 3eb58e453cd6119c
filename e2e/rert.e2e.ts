// RERT dispatches against the real server in demo mode (spec 3 §2.5, §4.2): the retailer executes a
// RERT discharge through the edit and confirmation views, reschedules it an hour longer through the
// same flow (ending in Reschedule, the detail page in place), and cancels it after the question.
import { accountEndpoints } from '@vpp/shared/account/endpoints';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { formatPower } from '@vpp/shared/format';
import { rertEndpoints } from '@vpp/shared/rert/endpoints';
import { RERT_MESSAGES } from '@vpp/shared/rert/messages';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import { eventually, gone, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** A VPP of the demo whose batteries can discharge now. */
async function vppWithBatteries(): Promise<{ id: number; name: string }> {
  const rita = await app.api('retailer');
  const { result } = await rita.call(vppEndpoints.list, { query: { limit: 100, offset: 0, type: 'STATIC,DYNAMIC' } });
  for (const v of result) {
    const c = await rita.call(dispatchEndpoints.constraints, { params: { id: v.id }, query: {} });
    if (c.data.realPowerPMin < 0) return v;
  }
  throw new Error('no demo VPP has a battery that can discharge');
}

/** 'YYYY-MM-DDTHH:MM' of an instant in a time zone, as a datetime-local field takes it. */
const localDateTime = (ts: number, zone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(ts * 1000)
    .replace(' ', 'T');

/** An 'HH:MM' an hour later. */
const hourLater = (hhmm: string) => `${String((Number(hhmm.slice(0, 2)) + 1) % 24).padStart(2, '0')}:${hhmm.slice(3, 5)}`;

describe('RERT dispatches', () => {
  it('creates, reschedules and cancels a RERT dispatch through the screens', async () => {
    const vpp = await vppWithBatteries();
    const rita = await app.api('retailer');
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'RERT Dispatches' }).click();
    await reachPath(page, '/virtual-power-plants/rert-dispatches?limit=10&offset=0');
    await (await shown(page.getByRole('button', { name: 'New RERT Dispatch' }))).click();

    // Create: the edit form, then the confirmation's Execute.
    const edit = await shown(page.getByRole('dialog', { name: 'New RERT Dispatch' }));
    await edit.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.name, exact: true }).click();
    const power = edit.getByRole('slider', { name: 'Power (kW)' });
    await eventually(() => power.getAttribute('aria-disabled')).not.toBe('true');
    await power.focus();
    await page.keyboard.press('Home');
    await eventually(async () => Number(await power.getAttribute('aria-valuenow'))).toBeLessThan(0);
    const kw = Number(await power.getAttribute('aria-valuenow'));
    // RERT only discharges: the slider's far end is 0.
    expect(Number(await power.getAttribute('aria-valuemax'))).toBeLessThanOrEqual(0.1);
    await shown(edit.getByText(/^Customer message: /));
    // AEMO's instruction and the RERT contract (issue 33 item 3): Confirm waits for them.
    expect(await edit.getByRole('button', { name: 'Confirm', exact: true }).isDisabled()).toBe(true);
    const zone = (await rita.call(accountEndpoints.get, {})).data.timezone ?? 'Australia/Sydney';
    const now = Math.floor(Date.now() / 1000);
    await edit.getByRole('textbox', { name: 'AEMO instruction ID' }).fill('AEMO-RERT-E2E');
    await edit.getByRole('combobox', { name: 'Notice category' }).click();
    await page.getByRole('option', { name: 'Short notice' }).click();
    await edit.getByRole('combobox', { name: 'LOR condition' }).click();
    await page.getByRole('option', { name: 'LOR2' }).click();
    await edit.getByLabel(/^Pre-activation time/).fill(localDateTime(now - 3600, zone));
    await edit.getByLabel(/^Activation time/).fill(localDateTime(now, zone));
    for (const [name, value] of [
      ['Contract reference', 'E2E-RERT'],
      ['Contracted reserve (MW)', '0.05'],
      ['Availability ($/MW per hour)', '10'],
      ['Pre-activation ($/MWh)', '100'],
      ['Activation ($/MWh)', '500'],
      ['Usage ($/MWh)', '1000'],
      ['Customers’ share (%)', '40'],
    ])
      await edit.getByRole('textbox', { name, exact: true }).fill(value);
    await eventually(() => edit.getByRole('button', { name: 'Confirm', exact: true }).isDisabled()).toBe(false);
    await edit.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirm = await shown(page.getByRole('dialog', { name: 'Confirm RERT Dispatch' }));
    await shown(confirm.getByText(`Discharge ${Math.abs(kw).toFixed(1)} kW`));
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/rert-dispatches'),
      confirm.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(created.status()).toBe(200);
    const { id } = ((await created.json()) as { data: { id: number } }).data;
    await reachPath(page, `/virtual-power-plants/rert-dispatches/${id}`);
    await shown(page.getByText('RERT Dispatch successfully executed'));
    await shown(page.getByRole('region', { name: 'Request' }).getByText(`${formatPower(kw)} (Discharge)`));
    const before = (await rita.call(rertEndpoints.detail, { params: { id } })).data;
    expect(before).toMatchObject({
      state: 'UPCOMING',
      reason: 'RERT',
      powerstation: { id: vpp.id },
      request: { realPowerP: kw },
      rert: {
        instruction: { id: 'AEMO-RERT-E2E', noticeCategory: 'SHORT_NOTICE', lorCondition: 'LOR2' },
        contract: { reference: 'E2E-RERT', customerShare: 0.4 },
      },
    });
    await shown(page.getByRole('region', { name: 'AEMO Instruction and RERT Contract' }).getByText('AEMO-RERT-E2E'));

    // Reschedule: the same flow, an hour longer, ending in Reschedule; the detail page stays in place.
    await (await shown(page.getByRole('button', { name: 'Reschedule' }))).click();
    const move = await shown(page.getByRole('dialog', { name: `Reschedule RERT Dispatch ${id}` }));
    expect(await move.getByRole('combobox', { name: 'Virtual Power Plant' }).isDisabled()).toBe(true);
    const endTime = move.getByRole('combobox', { name: 'End time' });
    // Near midnight the choice reads 'HH:MM (next day)'; compare the time itself.
    const later = hourLater(await endTime.inputValue());
    await endTime.click();
    await page
      .getByRole('option', { name: new RegExp(`^${later}`) })
      .first()
      .click();
    await eventually(async () => (await endTime.inputValue()).slice(0, 5)).toBe(later);
    await move.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirmMove = await shown(page.getByRole('dialog', { name: 'Confirm Reschedule' }));
    await shown(confirmMove.getByText(RERT_MESSAGES.rescheduleConfirm));
    const [moved] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/rert-dispatches/${id}/reschedule`),
      confirmMove.getByRole('button', { name: 'Reschedule' }).click(),
    ]);
    expect(moved.status()).toBe(200);
    await shown(page.getByText('RERT Dispatch successfully rescheduled'));
    await gone(page.getByRole('dialog'));
    await reachPath(page, `/virtual-power-plants/rert-dispatches/${id}`);
    const after = (await rita.call(rertEndpoints.detail, { params: { id } })).data;
    expect(after.request).toMatchObject({ startTime: before.request.startTime, duration: before.request.duration + 3600, realPowerP: kw });
    expect(after.audit.map((a) => a.action)).toEqual(['CREATED', 'CHANGED']);
    await shown(page.getByRole('region', { name: 'History' }).getByText(/^Changed by Rita Retailer/));

    // Cancel: asked first, then cancelled; the buttons go.
    await page.locator('#root').getByRole('button', { name: 'Cancel', exact: true }).click();
    const question = await shown(page.getByRole('dialog', { name: 'Cancel RERT Dispatch' }));
    await shown(question.getByText('Are you sure want to cancel this dispatch?'));
    await question.getByRole('button', { name: 'Cancel Dispatch' }).click();
    await shown(page.getByText('RERT Dispatch successfully cancelled.'));
    await shown(page.getByText('Cancelled', { exact: true }));
    await eventually(() => page.getByRole('button', { name: 'Reschedule' }).count()).toBe(0);
    expect((await rita.call(rertEndpoints.detail, { params: { id } })).data.cancelledAt).not.toBeNull();

    // The list holds it, cancelled.
    await page.getByRole('link', { name: 'RERT Dispatches' }).first().click();
    const row = page
      .getByRole('table', { name: 'RERT Dispatches' })
      .getByRole('row')
      .filter({ hasText: `RERT ${id}` });
    await shown(row.getByText('Cancelled', { exact: true }));
  });
});
