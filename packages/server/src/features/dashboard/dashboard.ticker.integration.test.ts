import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';

type Headers = { authorization: string };

describeEachDatabase('GET /ticker: dispatch events', (h) => {
  let admin: Headers;
  let viewer: Headers;
  let blind: Headers;
  let theirs: Headers;
  let vpp: number;
  // Taken when the suite starts (not when the file loads): the PostgreSQL run comes after SQLite's,
  // and the API refuses a dispatch that starts in the past.
  let now: number;
  let slot: number;
  const ids: Record<string, number> = {};

  const get = (headers?: Headers) => h().app.inject({ method: 'GET', url: '/ticker', headers });
  /** The reply with only its DISPATCH events (the weather and the counts are dashboard.ticker-fleet.integration.test.ts's). */
  const dispatches = async (headers: Headers) => {
    const res = await get(headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return { ...body, data: body.data.filter((e: { type: string }) => e.type === 'DISPATCH') };
  };

  beforeAll(async () => {
    now = nowS();
    slot = now - (now % 300) + 600;
    const org = await h().org('RETAILER', 'Sunrise');
    const other = await h().org('RETAILER', 'Elsewhere');
    admin = await h().bearer((await h().user(org)).username);
    viewer = await h().bearer((await h().user(org, { permissions: ['fleet.powerstations.view'] })).username);
    blind = await h().bearer((await h().user(org, { permissions: ['fleet.analysis.export.view'] })).username);
    theirs = await h().bearer((await h().user(other)).username);
    const { db, telemetry } = h().ctx;
    const battery = async (orgId: number) => {
      const n = await node(h(), [orgId]);
      await db.updateTable('nodes').set({ battery_usable_kwh: 20, battery_kwh: 20, battery_kw: 5 }).where('id', '=', n.id).execute();
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
      return n.id;
    };
    const create = async (headers: Headers, powerstation: number, startTime: number, realPowerP: number) => {
      const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload: { powerstation, startTime, duration: 1800, realPowerP } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const mine = [await battery(org), await battery(org)];
    vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: admin, payload: { type: 'STATIC', name: 'Harbour', nodes: mine } })
    ).json().data.id;
    const foreignVpp = (
      await h().app.inject({
        method: 'POST',
        url: '/api/powerstations',
        headers: theirs,
        payload: { type: 'STATIC', name: 'Theirs', nodes: [await battery(other)] },
      })
    ).json().data.id;
    for (const [name, k, p] of [
      ['discharging', 0, -4],
      ['charging', 1, 4],
      ['lockedOut', 2, 0],
      ['dueDischarge', 3, -4],
      ['dueCharge', 4, 4],
      ['dueLockout', 5, 0],
      ['cancelled', 6, -4],
      ['beyond', 60, -4],
    ] as const)
      ids[name] = await create(admin, vpp, slot + k * 3600, p);
    ids.foreign = await create(theirs, foreignVpp, slot, -2);
    expect((await h().app.inject({ method: 'POST', url: `/dispatch/${ids.cancelled}/cancel`, headers: admin })).statusCode).toBe(200);
    // Three under way now (moved, as the clock would move them: the API takes no start in the past).
    for (const [name, k] of [
      ['discharging', 0],
      ['charging', 1],
      ['lockedOut', 2],
    ] as const)
      await db
        .updateTable('events')
        .set({ start_time: now - 600 - k * 60 })
        .where('id', '=', ids[name])
        .execute();
    // One that ended: off the ticker.
    ids.ended = await create(admin, vpp, slot + 7 * 3600, -4);
    await db
      .updateTable('events')
      .set({ start_time: now - 7200 })
      .where('id', '=', ids.ended)
      .execute();
  });

  it("answers the organisation's dispatches in progress and due within 24 hours, soonest first, with the spec's words", async () => {
    const powerstation = { id: vpp, name: 'Harbour' };
    const event = (name: string, state: string, realPowerP: number, startTime: number, text: string) => ({
      type: 'DISPATCH',
      id: ids[name],
      powerstation,
      state,
      realPowerP,
      startTime,
      duration: 1800,
      text,
    });
    expect(await dispatches(admin)).toEqual({
      status: 'OK',
      data: [
        event('lockedOut', 'INPROGRESS', 0, now - 720, 'Harbour is locked out'),
        event('charging', 'INPROGRESS', 4, now - 660, 'Harbour is charging'),
        event('discharging', 'INPROGRESS', -4, now - 600, 'Harbour is discharging'),
        event('dueDischarge', 'UPCOMING', -4, slot + 3 * 3600, 'Harbour is due to discharge'),
        event('dueCharge', 'UPCOMING', 4, slot + 4 * 3600, 'Harbour is due to charge'),
        event('dueLockout', 'UPCOMING', 0, slot + 5 * 3600, 'Harbour is due to lockout'),
      ],
    });
  });

  it('shows them to any user who may see the VPPs, none to one who may see neither VPPs nor dispatches, and no other organisation’s', async () => {
    expect((await dispatches(viewer)).data.map((e: { id: number }) => e.id)).toEqual(
      ['lockedOut', 'charging', 'discharging', 'dueDischarge', 'dueCharge', 'dueLockout'].map((n) => ids[n]),
    );
    const none = await get(blind);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ status: 'OK', data: [] });
    expect((await dispatches(theirs)).data.map((e: { id: number; text: string }) => [e.id, e.text])).toEqual([[ids.foreign, 'Theirs is due to discharge']]);
  });

  it('answers 401 without a token', async () => {
    const res = await get();
    expect(res.statusCode).toBe(401);
    expect(res.json().data.message).toBe('Sign in to continue.');
  });
});
