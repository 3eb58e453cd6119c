import { gunzipSync } from 'node:zlib';
import { DEFAULT_DASHBOARD } from '@vpp/shared/dashboard/layout';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';

type Headers = { authorization: string };

const at = (x: number, y: number, w = 1, h = 2) => ({ x, y, w, h });

describeEachDatabase('GET and POST /account/dashboard', (h) => {
  let alice: Headers;
  let bob: Headers;
  let bare: Headers;

  const get = (headers?: Headers) => h().app.inject({ method: 'GET', url: '/account/dashboard', headers });
  const save = (headers: Headers | undefined, payload: unknown) =>
    h().app.inject({ method: 'POST', url: '/account/dashboard', headers, payload: payload as object });

  /** A VPP of this organisation, and one of another. */
  let ours: number;
  let theirs: number;
  const vpp = async (org: number, name: string) =>
    (
      await h()
        .ctx.db.insertInto('powerstations')
        .values({ organisation_id: org, name, type: 'DYNAMIC', state: 'NSW', duid: null, created_at: 1, updated_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Sunrise');
    ours = await vpp(org, 'Harbour');
    theirs = await vpp(await h().org('RETAILER', 'Elsewhere'), 'Hills');
    (saved[0].settings as { powerstation: number }).powerstation = ours;
    alice = await h().bearer((await h().user(org)).username);
    bob = await h().bearer((await h().user(org)).username);
    // Spec 2 §6 gates the widgets, not the dashboard: a user with no permission has one too.
    bare = await h().bearer((await h().user(org, { permissions: [] })).username);
  });

  it('answers the default dashboard, a Welcome widget, when nothing is saved', async () => {
    const res = await get(alice);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'OK',
      data: { isDefault: true, widgets: [{ widgetId: 'WELCOME', layout: { x: 0, y: 0, w: 2, h: 2 }, settings: {} }] },
    });
    expect(res.json().data).toEqual(DEFAULT_DASHBOARD);
  });

  const saved = [
    { widgetId: 'VOLTAGE_HEAT_MAP', layout: at(0, 0, 2, 3), settings: { powerstation: 12 } },
    { widgetId: 'SINGLE_STAT', layout: at(2, 0), settings: { metric: 'offline' } },
    { widgetId: 'NODE_MAP', layout: at(3, 0, 2, 4), settings: { shouldCluster: false } },
    { widgetId: 'DATA_GRAPH', layout: at(0, 3, 2, 2), settings: { powerstation: '__ALL_FLEET_NODES__', metric: 'remainingCharge' } },
    { widgetId: 'WELCOME', layout: at(0, 5) },
  ];
  const asStored = [saved[0], { ...saved[1], settings: { metric: 'offline', powerstation: null } }, saved[2], saved[3], { ...saved[4], settings: {} }];

  it('saves the widgets with their layout and settings, and loads them back (defaults of unchosen settings filled in)', async () => {
    const res = await save(alice, { widgets: saved });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', data: { isDefault: false, widgets: asStored } });
    expect((await get(alice)).json()).toEqual({ status: 'OK', data: { isDefault: false, widgets: asStored } });
  });

  it.each([
    [
      'an unknown widget',
      { widgets: [{ widgetId: 'CLOCK', layout: at(0, 0) }] },
      'Each widget must be an object whose widgetId is one of WELCOME, VOLTAGE_HEAT_MAP, SINGLE_STAT, NODE_MAP, DATA_GRAPH.',
    ],
    [
      'a widget past the 5 columns',
      { widgets: [{ widgetId: 'NODE_MAP', layout: at(4, 0, 2, 2) }] },
      "A widget must fit in the grid's 5 columns: layout.x + layout.w must be at most 5.",
    ],
    ['a widget no columns wide', { widgets: [{ widgetId: 'NODE_MAP', layout: at(0, 0, 0, 2) }] }, 'layout.w must be a whole number from 1 to 5.'],
    ['a widget taller than 8 rows', { widgets: [{ widgetId: 'NODE_MAP', layout: at(0, 0, 1, 9) }] }, 'layout.h must be a whole number from 1 to 8.'],
    ['a fractional place', { widgets: [{ widgetId: 'NODE_MAP', layout: at(0, 1.5) }] }, 'layout.y must be a whole number from 0 to 400.'],
    ['a widget without a layout', { widgets: [{ widgetId: 'WELCOME' }] }, 'layout must be an object with x, y, w and h.'],
    ['51 widgets', { widgets: Array.from({ length: 51 }, (_, i) => ({ widgetId: 'WELCOME', layout: at(0, i) })) }, 'A dashboard can hold at most 50 widgets.'],
    [
      "a heat map's VPP that is not an id",
      { widgets: [{ widgetId: 'VOLTAGE_HEAT_MAP', layout: at(0, 0), settings: { powerstation: 'Harbour' } }] },
      'settings.powerstation must be a Virtual Power Plant id (a whole number from 1 to 2147483647).',
    ],
    [
      "a graph's unknown metric",
      { widgets: [{ widgetId: 'DATA_GRAPH', layout: at(0, 0), settings: { metric: 'meterVoltage' } }] },
      'settings.metric must be one of solarPower, meterPower, remainingCharge.',
    ],
    [
      "a VPP's live figure without the VPP",
      { widgets: [{ widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'solarPower' } }] },
      'settings.powerstation is required for a Single Stat of solarPower, meterPower, remainingCharge.',
    ],
    [
      'a clustering that is not true or false',
      { widgets: [{ widgetId: 'NODE_MAP', layout: at(0, 0), settings: { shouldCluster: 'yes' } }] },
      'settings.shouldCluster must be true or false.',
    ],
    ['no widgets list', { layout: [] }, 'widgets must be a list.'],
  ])('refuses %s with a 400 saying so, and the saved dashboard is untouched', async (_, body, message) => {
    const res = await save(alice, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.message).toBe(message);
    expect((await get(alice)).json().data).toEqual({ isDefault: false, widgets: asStored });
  });

  it("refuses another organisation's VPP in a widget's settings, and keeps what was saved", async () => {
    const before = (await get(alice)).json();
    const res = await save(alice, { widgets: [saved[2], { widgetId: 'VOLTAGE_HEAT_MAP', layout: at(0, 4, 2, 3), settings: { powerstation: theirs } }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe('widgets[1].settings.powerstation is not a Virtual Power Plant of your organisation.');
    expect((await get(alice)).json()).toEqual(before);
  });

  it("keeps each user's dashboard their own: another's save neither shows nor changes it", async () => {
    expect((await get(bob)).json().data).toEqual(DEFAULT_DASHBOARD);
    const mine = [{ widgetId: 'NODE_MAP', layout: at(0, 0, 5, 4), settings: { shouldCluster: true } }];
    expect((await save(bob, { widgets: mine })).statusCode).toBe(200);
    expect((await get(bob)).json().data).toEqual({ isDefault: false, widgets: mine });
    expect((await get(alice)).json().data).toEqual({ isDefault: false, widgets: asStored });
  });

  it('keeps an emptied dashboard empty rather than bringing the Welcome widget back', async () => {
    expect((await save(bare, { widgets: [] })).statusCode).toBe(200);
    expect((await get(bare)).json().data).toEqual({ isDefault: false, widgets: [] });
  });

  it('holds 50 widgets, and a reply that large travels gzipped to a client that accepts it', async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => ({ widgetId: 'NODE_MAP', layout: at(i % 5, 2 * Math.floor(i / 5)), settings: { shouldCluster: true } }));
    expect((await save(bob, { widgets: fifty })).statusCode).toBe(200);
    const res = await h().app.inject({ method: 'GET', url: '/account/dashboard', headers: { ...bob, 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual({ status: 'OK', data: { isDefault: false, widgets: fifty } });
  });

  it('answers 401 without credentials, and saves nothing', async () => {
    for (const res of [await get(), await save(undefined, { widgets: [] })]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().data.message).toBe('Sign in to continue.');
    }
  });
});
