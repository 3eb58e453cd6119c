// The OpenADR screen in Chromium: a VEN that registered through the VTN is listed with its
// resources, an administrator puts it in a VPP, and the VTN then targets that VPP's events at it.
import { apiKeyEndpoints } from '@vpp/shared/account/endpoints';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { OPENADR_BASE_PATH } from '@vpp/shared/openadr/schemas';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { describe, expect, it } from 'vitest';
import { shown, signIn, useApp } from './support/fixtures.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp(NO_FLEET);

describe('the OpenADR screen', () => {
  it('lists a VEN that registered through the VTN, with the VTN base URL, and chooses its VPPs', async () => {
    const api = await app.api('retailer');
    const key = await api.call(apiKeyEndpoints.create, {
      query: { password: Buffer.from(DEMO_PASSWORD).toString('base64') },
      body: { keyName: 'Aggregator key', openadrScopes: ['read_all', 'write_vens'] },
    });
    const vtn = `${app.url}${OPENADR_BASE_PATH}`;
    const token = await (
      await fetch(`${vtn}/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: String(key.data.keyId), client_secret: key.data.key }),
      })
    ).json();
    const created = await fetch(`${vtn}/vens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ venName: 'Aggregator One', resources: [{ resourceName: 'battery-17' }] }),
    });
    expect(created.status).toBe(201);
    const vpps = await api.call(vppEndpoints.list, { query: {} });
    const vppName = vpps.result[0].name;
    const programs = async () => (await (await fetch(`${vtn}/programs`, { headers: { authorization: `Bearer ${token.access_token}` } })).json()).length;
    // A VEN in no VPP sees only the five price programs.
    expect(await programs()).toBe(5);

    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'OpenADR' }).click();
    await page.waitForURL(/\/my-reposit\/openadr$/);
    await shown(page.getByLabel('VTN base URL').getByText(vtn));
    const row = await shown(page.getByRole('table', { name: 'VENs' }).getByRole('row', { name: /Aggregator One/ }));
    await shown(row.getByText('battery-17'));
    await shown(row.getByText('Aggregator key'));
    await row.getByLabel('VPPs of Aggregator One').click();
    await page.getByRole('option', { name: vppName }).click();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/openadr-page.png`, fullPage: true });
    // The VEN now receives the VPP's events: its program is listed for it.
    await expect.poll(programs, { timeout: 10_000 }).toBe(6);
  });
});
