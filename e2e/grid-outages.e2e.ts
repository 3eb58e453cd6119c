// Grid outage screens in Chromium against the real server: an outage created through the New Grid
// Outage modal with a storm message; customers opt out through the customer-app endpoint (node
// tokens); the detail lists the opted-out nodes, each linking to its fleet monitoring page.
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { outageEndpoints } from '@vpp/shared/outages/endpoints';
import { OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import type { Api } from './support/api.ts';
import { reachPath, shown, signIn, useApp } from './support/fixtures.ts';

const app = useApp({ SIM_NODES: '30' });

/** A demo VPP of the caller with reporting batteries: an outage prepares them. */
async function vppWithBatteries(api: Api): Promise<{ id: number; name: string }> {
  const { result } = await api.call(vppEndpoints.list, { query: { limit: 100, offset: 0, type: 'STATIC,DYNAMIC' } });
  for (const v of result) {
    const c = await api.call(dispatchEndpoints.constraints, { params: { id: v.id }, query: {} });
    if (c.data.deploymentsAvailable > 0) return v;
  }
  throw new Error('no demo VPP has a battery');
}

/** Opts nodes of the outage out through the customer app, each with its own node token; answers their ids. */
async function optOut(api: Api, outageId: number, vppId: number, count: number): Promise<number[]> {
  const members = (await api.call(vppEndpoints.nodes, { params: { id: vppId }, query: { limit: 200, offset: 0 } })).deployments.map((n) => n.id);
  const out: number[] = [];
  for (const nodeId of members) {
    if (out.length === count) break;
    const { token } = (await api.call(outageEndpoints.appToken, { params: { id: nodeId } })).data;
    const res = await fetch(`${app.url}/customer-app/events/${outageId}/opt-out`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    // A member without a commissioned battery is not part of the outage (404).
    if (res.ok) out.push(nodeId);
    else expect(res.status).toBe(404);
  }
  expect(out).toHaveLength(count);
  return out;
}

describe('grid outages', () => {
  it('creates a storm outage through the modal with a message, and its detail lists opted-out nodes linking to their pages', async () => {
    const rita = await app.api('retailer');
    const vpp = await vppWithBatteries(rita);
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Grid Outages' }).click();
    await reachPath(page, '/virtual-power-plants/grid-outages');
    await (await shown(page.getByRole('button', { name: 'New Grid Outage' }))).click();

    const modal = await shown(page.getByRole('dialog', { name: 'New Grid Outage' }));
    await modal.getByRole('combobox', { name: 'Virtual Power Plant' }).click();
    await page.getByRole('option', { name: vpp.name, exact: true }).click();
    // The default message names the organisation.
    await shown(modal.getByText('Storm Approaching', { exact: true }));
    await shown(modal.getByText(/Sunrise Energy has been warned of a storm/));
    await modal.getByRole('button', { name: 'Edit Message' }).click();
    const editor = await shown(page.getByRole('dialog', { name: 'Customer App Message' }));
    const text = 'A severe storm is heading for the coast tonight: your battery is charging to keep your lights on.';
    await editor.getByRole('textbox', { name: 'Message' }).fill(text);
    await editor.getByRole('button', { name: 'Save Message' }).click();
    const back = await shown(page.getByRole('dialog', { name: 'New Grid Outage' }));
    await shown(back.getByText(text));
    await back.getByRole('button', { name: 'Execute' }).click();
    await shown(page.getByText(OUTAGE_MESSAGES.executed));
    await page.waitForURL(/\/virtual-power-plants\/grid-outages\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    await shown(page.getByRole('heading', { name: `Storm Approaching - ${vpp.name}` }));
    await shown(page.getByText('Created by Rita Retailer', { exact: true }));
    await shown(page.getByText(/ahead of the expected storm outage/));
    await shown(page.getByRole('region', { name: 'Customer Message' }).getByText(text));
    const detail = (await rita.call(outageEndpoints.detail, { params: { id } })).data;
    expect(detail).toMatchObject({ outageReason: 'STORM', reason: 'Storm Approaching', customerMessage: text, request: { duration: 7200 } });

    const opted = await optOut(rita, id, vpp.id, 2);
    // The detail refreshes itself (every 2 s while new): the opted-out nodes appear with their links.
    const list = await shown(page.getByRole('table', { name: 'Opted-out nodes' }));
    for (const nodeId of opted) await shown(list.getByRole('link', { name: String(nodeId), exact: true }));
    await shown(page.getByRole('region', { name: 'Response' }).getByText(/^\d+ of \d+ nodes responded$/));

    // Issue 34 item 12: once the engine sends the outage's orders, a home's app receives its message and acknowledges it;
    // the operator sees it delivered, node by node, beside the opt-outs.
    const { token } = (await rita.call(outageEndpoints.appToken, { params: { id: opted[0] } })).data;
    const received = async () => {
      const res = await fetch(`${app.url}/customer-app/messages`, { headers: { authorization: `Bearer ${token}` } });
      const messages: { event: number; message: string; optedOutAt: number | null }[] = (await res.json()).data.messages;
      return messages.find((m) => m.event === id) ?? null;
    };
    await expect.poll(received, { timeout: 120_000, interval: 1000 }).toMatchObject({ message: text, optedOutAt: expect.any(Number) });
    const ack = await fetch(`${app.url}/customer-app/messages/${id}/delivered`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(ack.status).toBe(200);
    await page.reload();
    const delivery = await shown(page.getByRole('region', { name: 'Customer Message Delivery' }));
    await shown(delivery.getByText(/^Sent to \d+ nodes: 1 delivered to the customer app, 0 read, \d+ opted out\.$/));
    await list.getByRole('link', { name: String(opted[0]), exact: true }).click();
    await reachPath(page, `/fleet-monitoring/nodes/${opted[0]}`);
  });

  it('lists the outage and cancels it after a confirmation', async () => {
    const rita = await app.api('retailer');
    const vpp = await vppWithBatteries(rita);
    const now = Math.floor(Date.now() / 1000);
    // Three days out: clear of the outage the test before made from the modal's default start (the same VPP; overlapping outages are refused).
    const { id } = (
      await rita.call(outageEndpoints.create, { body: { powerstation: vpp.id, startTime: now - (now % 300) + 3 * 86_400, outageReason: 'PLANNED' } })
    ).data;
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.goto('/virtual-power-plants/grid-outages');
    const row = page.getByRole('table', { name: 'Grid Outages' }).getByRole('row').filter({ hasText: 'Planned Outage' }).filter({ hasText: vpp.name });
    await shown(row.first());
    await row.first().click();
    await reachPath(page, `/virtual-power-plants/grid-outages/${id}`);
    await shown(page.getByRole('heading', { name: `Planned Outage - ${vpp.name}` }));
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const confirm = await shown(page.getByRole('dialog', { name: 'Cancel Grid Outage' }));
    await confirm.getByRole('button', { name: 'Cancel Grid Outage' }).click();
    await shown(page.getByText(OUTAGE_MESSAGES.cancelled));
    await reachPath(page, '/virtual-power-plants/grid-outages');
    expect((await rita.call(outageEndpoints.detail, { params: { id } })).data.cancelledAt).not.toBeNull();
  });
});
