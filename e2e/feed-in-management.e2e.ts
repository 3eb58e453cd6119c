// Feed-In Management in Chromium against the real server and the simulated fleet (spec 3 §2.7, §4.3,
// §5; spec 2 §2): a net curtailment created through the New Curtailment modal and its detail with the
// graph and node table; a default setpoint created from a VPP's Default Setpoints tab; an operator
// without curtailment permissions sees neither the tabs nor the buttons.
import { curtailmentEndpoints } from '@vpp/shared/curtailments/endpoints';
import { CURTAILMENT_MESSAGES } from '@vpp/shared/curtailments/messages';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import type { Api } from './support/api.ts';
import { eventually, gone, reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp();

/** A demo VPP of the caller with curtailable nodes (a constraint below 0), and its constraint. */
async function curtailableVpp(api: Api): Promise<{ id: number; name: string; constraint: number }> {
  const { result } = await api.call(vppEndpoints.list, { query: { limit: 100, offset: 0, type: 'STATIC,DYNAMIC' } });
  for (const v of result) {
    const c = await api.call(curtailmentEndpoints.constraint, { query: { powerstation: v.id } });
    if (c.data.constraint <= -1) return { id: v.id, name: v.name, constraint: c.data.constraint };
  }
  throw new Error('no demo VPP has a curtailable node');
}

describe('Feed-In Management', () => {
  it('creates a net curtailment through the modal and opens its detail with the graph and the node table', async () => {
    const rita = await app.api('retailer');
    const vpp = await curtailableVpp(rita);
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Feed-In Management' }).click();
    await reachPath(page, '/virtual-power-plants/feed-in-management?tab=CURTAILMENT_LIST&limit=10&offset=0');
    await shown(page.getByRole('tab', { name: 'Curtailments', selected: true }));
    await (await shown(page.getByRole('button', { name: 'New Curtailment' }))).click();

    const edit = await shown(page.getByRole('dialog', { name: 'New Curtailment' }));
    await edit.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.name, exact: true }).click();
    // The slider opens once the constraint is in: from the constraint up to 0, at 0 to start with.
    const slider = edit.getByRole('slider', { name: 'Real power (kW)' });
    await eventually(() => slider.getAttribute('aria-valuemin')).toBe(String(vpp.constraint));
    expect(await slider.getAttribute('aria-valuemax')).toBe('0');
    expect(await slider.getAttribute('aria-valuenow')).toBe('0');
    // Hold the export at the meters to a third of what the VPP could put out.
    const kw = Math.round((vpp.constraint / 3) * 10) / 10;
    await edit.getByRole('textbox', { name: 'Real power' }).fill(String(kw));
    await edit.getByRole('textbox', { name: 'Real power' }).press('Enter');
    await eventually(() => slider.getAttribute('aria-valuenow')).toBe(String(kw));
    expect(await edit.getByRole('radio', { name: 'Net' }).isChecked()).toBe(true);
    // The prediction of the VPP's solar and meter power over the window, with the limit drawn.
    await shown(edit.getByRole('img', { name: 'Curtailment prediction' }));

    await edit.getByRole('button', { name: 'Confirm', exact: true }).click();
    const confirm = await shown(page.getByRole('dialog', { name: 'Confirm Curtailment' }));
    await shown(confirm.getByText(CURTAILMENT_MESSAGES.confirm));
    await shown(confirm.getByRole('table', { name: 'Curtailment summary' }).getByText(vpp.name));
    await shown(confirm.getByText(`Net ${kw.toFixed(1)} kW`));
    await confirm.getByRole('button', { name: 'Execute' }).click();
    await shown(page.getByText(CURTAILMENT_MESSAGES.executed));
    await page.waitForURL(/\/virtual-power-plants\/feed-in-management\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    // Not triggered: titled by its VPP.
    await shown(page.getByRole('heading', { name: vpp.name, level: 1 }));
    const request = page.getByRole('region', { name: 'Request' });
    await shown(request.getByText(`${kw.toFixed(1)} kW`, { exact: true }));
    await shown(request.getByText('Net', { exact: true }));
    await shown(page.getByRole('img', { name: 'Curtailment solar and meter power' }));
    await shown(page.getByText(/^\d+ of \d+ nodes accepted$/));
    const nodes = await shown(page.getByRole('table', { name: 'Curtailment nodes' }));
    await shown(nodes.getByRole('row').nth(1));
    const detail = (await rita.call(curtailmentEndpoints.detail, { params: { id } })).data;
    expect(detail).toMatchObject({ component: 'grid', state: 'UPCOMING', request: { realPowerP: kw, duration: 14_400 } });
    expect(detail.request.deploymentsRequested).toBeGreaterThan(0);
    const listed = (await rita.call(curtailmentEndpoints.nodes, { params: { id }, query: { limit: 200, offset: 0 } })).data;
    expect(listed.total).toBe(detail.request.deploymentsRequested);
    await shown(nodes.getByRole('cell', { name: listed.nodes[0].serialNumber, exact: true }));
    // The events panel lists it among the upcoming curtailments.
    await shown(page.getByRole('table', { name: 'Curtailment events' }).getByRole('link', { name: vpp.name }).first());

    // Back in the list it reads Net with its limit; cancelling from the detail returns there.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const cancel = await shown(page.getByRole('dialog', { name: 'Cancel Curtailment' }));
    await cancel.getByRole('button', { name: 'Cancel Curtailment' }).click();
    await shown(page.getByText(CURTAILMENT_MESSAGES.cancelled));
    await reachPath(page, '/virtual-power-plants/feed-in-management?tab=CURTAILMENT_LIST&limit=10&offset=0');
    const row = page.getByRole('table', { name: 'Curtailments' }).getByRole('row').filter({ hasText: vpp.name }).filter({ hasText: 'Cancelled' });
    await shown(row.first());
    await shown(row.first().getByText('Net', { exact: true }));
  });

  it("creates a default setpoint from the VPP's Default Setpoints tab, ignoring a positive limit", async () => {
    const rita = await app.api('retailer');
    const vpp = await curtailableVpp(rita);
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto(`/virtual-power-plants/manage/${vpp.id}?tab=MAP&limit=10&offset=0`);
    await (await shown(page.getByRole('tab', { name: 'Default Setpoints' }))).click();
    await reachPath(page, `/virtual-power-plants/manage/${vpp.id}?tab=SETPOINT_LIST&limit=10&offset=0`);
    await shown(page.getByRole('table', { name: 'Default Setpoints' }));
    await page.getByRole('button', { name: 'New Default Setpoint' }).click();

    const modal = await shown(page.getByRole('dialog', { name: 'New Curtailment Setpoint' }));
    await eventually(() => modal.getByRole('combobox', { name: 'Virtual Power Plant' }).inputValue()).toBe(vpp.name);
    expect(await modal.getByRole('textbox', { name: 'Ramp duration' }).inputValue()).toBe('120 s');
    const net = modal.getByRole('textbox', { name: 'Net VPP Limit (kW)' });
    const gross = modal.getByRole('textbox', { name: 'Gross VPP Limit (kW)' });
    expect(await net.inputValue()).toBe('0');
    // A positive limit is ignored (spec 3 §5).
    await net.fill('');
    await net.pressSequentially('7');
    expect(await net.inputValue()).not.toBe('7');
    await net.fill('');
    await net.pressSequentially('-3');
    await gross.fill('');
    await gross.pressSequentially('-8');
    await modal.getByRole('button', { name: 'Create Setpoint' }).click();
    await shown(page.getByText(CURTAILMENT_MESSAGES.setpointCreated));
    await gone(page.getByRole('dialog', { name: 'New Curtailment Setpoint' }));

    const { setpoints } = (await rita.call(curtailmentEndpoints.vppSetpoints, { params: { id: vpp.id }, query: { limit: 10, offset: 0 } })).data;
    expect(setpoints[0]).toMatchObject({ status: 'ACTIVE', ramp_duration: 120, grid_limit: -3, solar_limit: -8 });
    // The list reloaded: the new setpoint is there, active, with its limits.
    const row = page
      .getByRole('table', { name: 'Default Setpoints' })
      .getByRole('row')
      .filter({ hasText: `Setpoint ${setpoints[0].id}` });
    await shown(row);
    await shown(row.getByText('ACTIVE'));
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('-8');
    expect(await row.getByRole('cell').nth(5).textContent()).toBe('-3');
  });

  it('shows an operator without curtailment permissions neither the tabs nor the buttons', async () => {
    const oscar = await app.api('operator');
    const { result } = await oscar.call(vppEndpoints.list, { query: { limit: 10, offset: 0, type: 'STATIC,DYNAMIC' } });
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await shown(nav.getByRole('link').first());
    expect(await nav.getByRole('link', { name: 'Feed-In Management' }).count()).toBe(0);

    await page.goto(`/virtual-power-plants/manage/${result[0].id}?tab=SETPOINT_LIST&limit=10&offset=0`);
    await shown(page.getByRole('heading', { name: result[0].name, level: 1 }));
    await shown(page.getByRole('tab', { name: 'Map', selected: true }));
    expect(await page.getByRole('tab', { name: 'Default Setpoints' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add New' }).count()).toBe(0);

    await page.goto('/virtual-power-plants/feed-in-management');
    await shown(page.getByRole('heading', { name: 'Feed-In Management' }));
    await shown(page.getByText('You do not have the required permissions to perform this action.'));
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New Curtailment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New Default Setpoint' }).count()).toBe(0);
  });
});
