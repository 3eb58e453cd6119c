import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { dispatchUsers, node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';

// Two reporting 5 kW batteries of 20 kWh holding 18 kWh (each can give (18 − 2) × 0.95 = 15.2 kWh),
// one node without a battery.
describeEachDatabase('dispatches: create, list, detail, cancel', (h) => {
  let headers: { authorization: string };
  let viewer: { authorization: string };
  let noStrategy: { authorization: string };
  let other: { authorization: string };
  let fleet: number;
  let spare: number;
  let solarOnly: number;
  let batteries: number[];
  const now = nowS();
  const hour = now - (now % 3600);
  let userName: string;

  const post = (url: string, payload?: object, hdrs = headers) => h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });
  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const body = (over: object = {}) => ({
    powerstation: fleet,
    startTime: hour + 7200,
    duration: 3600,
    realPowerP: -4,
    customerMessage: 'Thanks for helping',
    ...over,
  });

  beforeAll(async () => {
    let org: number;
    ({ org, userName, headers, viewer, dispatcher: noStrategy, other } = await dispatchUsers(h(), ['fleet.dispatches.view', 'fleet.powerstations.view']));
    const { db, telemetry } = h().ctx;
    const battery = async (usableKwh: number, remaining: number) => {
      const n = await node(h(), [org]);
      await db
        .updateTable('nodes')
        .set({ battery_usable_kwh: usableKwh, battery_kwh: usableKwh, battery_kw: usableKwh ? 5 : 0 })
        .where('id', '=', n.id)
        .execute();
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: usableKwh ? remaining : null, soc: null }]);
      return n.id;
    };
    batteries = [await battery(20, 18), await battery(20, 18)];
    const third = await battery(20, 18);
    const solar = await battery(0, 0);
    const create = async (name: string, nodes: number[]) => {
      const res = await post('/api/powerstations', { type: 'STATIC', name, nodes });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    fleet = await create('Fleet', [...batteries, solar]);
    spare = await create('Overlapping', [batteries[0], third]);
    solarOnly = await create('Solar only', [solar]);
  });

  it('stores a dispatch with its request, allocation, message and creator, and lists it', async () => {
    const res = await post('/dispatch', body({ strategy: 'uniform' }));
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    const detail = await get(`/api/dispatches/${id}`, viewer);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toEqual({
      id,
      state: 'UPCOMING',
      reason: null,
      triggered: false,
      createdBy: userName,
      createdAt: expect.any(Number),
      cancelledAt: null,
      powerstation: { id: fleet, name: 'Fleet' },
      request: {
        startTime: hour + 7200,
        duration: 3600,
        realPowerP: -4,
        powerFactor: null,
        powerFactorLeadLag: null,
        strategy: 'uniform',
        deploymentsRequested: 2,
      },
      customerMessage: { title: 'GridCredits Event', text: 'Thanks for helping' },
      currentResponse: { realPowerP: 0, rejectedRealPowerP: 0, deliveredKwh: 0, deploymentsResponded: 0 },
      audit: [{ action: 'CREATED', at: expect.any(Number), by: userName, detail: null }],
      // Not a RERT dispatch: no AEMO instruction nor contract (issue 33 item 3).
      rert: null,
    });
    const alloc = await h()
      .ctx.db.selectFrom('dispatch_nodes')
      .select(['node_id', 'share_kw', 'intervals'])
      .where('event_id', '=', id)
      .orderBy('node_id')
      .execute();
    expect(alloc.map((a) => [a.node_id, a.share_kw, JSON.parse(a.intervals)])).toEqual(
      batteries.map((b) => [b, -2, [{ start: hour + 7200, end: hour + 10800, kw: -2 }]]),
    );
    const list = (await get('/api/dispatches?limit=10', viewer)).json().data;
    expect(list.total).toBe(1);
    expect(list.dispatches[0]).toMatchObject({ id, state: 'UPCOMING', powerstation: { name: 'Fleet' } });
    expect((await get('/dispatch/messages')).json().data.messages).toEqual([
      { customerMessage: 'Thanks for helping', title: 'GridCredits Event', createdAt: expect.any(Number) },
    ]);
    // The same nodes at an overlapping time, through another VPP: refused, naming the dispatch.
    const overlap = await post('/dispatch', body({ powerstation: spare, startTime: hour + 9000, realPowerP: -2 }));
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().data.message).toBe(`These nodes are already in dispatch ${id} at that time.`);
    // Cancelled: the audit says who, the nodes are free again.
    const cancel = await post(`/dispatch/${id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const cancelled = (await get(`/api/dispatches/${id}`)).json().data;
    expect(cancelled.cancelledAt).toEqual(expect.any(Number));
    expect(cancelled.audit.map((a: { action: string; by: string }) => [a.action, a.by])).toEqual([
      ['CREATED', userName],
      ['CANCELLED', userName],
    ]);
    expect((await post(`/dispatch/${id}/cancel`)).json().data.message).toBe('This dispatch has already been cancelled.');
    expect((await post('/dispatch', body({ powerstation: spare, startTime: hour + 9000, realPowerP: -2 }))).statusCode).toBe(200);
  });

  it('sends no message for a lockout, and the standard text for an empty message', async () => {
    const lockout = (await post('/dispatch', body({ startTime: hour + 86400, realPowerP: 0 }))).json().data.id;
    expect((await get(`/api/dispatches/${lockout}`)).json().data.customerMessage).toBeNull();
    const plain = (await post('/dispatch', body({ startTime: hour + 2 * 86400, customerMessage: '' }))).json().data.id;
    expect((await get(`/api/dispatches/${plain}`)).json().data.customerMessage).toEqual({
      title: 'GridCredits Event',
      text: DISPATCH_MESSAGES.defaultMessageText,
    });
  });

  it("shows a dispatch among its VPP's upcoming events until it is cancelled (spec 2 §2)", async () => {
    const id = (await post('/dispatch', body({ startTime: hour + 4 * 86400, realPowerP: 0 }))).json().data.id;
    const events = async () => (await get(`/api/powerstations/${fleet}/events?status=INCOMPLETE`, viewer)).json().events as { id: number }[];
    expect((await events()).find((e) => e.id === id)).toEqual({
      id,
      type: 'DISPATCH',
      startTime: hour + 4 * 86400,
      duration: 3600,
      state: 'UPCOMING',
      powerstation: { id: fleet, name: 'Fleet' },
    });
    expect((await get('/api/events?state=UPCOMING', viewer)).json().events.map((e: { id: number }) => e.id)).toContain(id);
    expect((await get(`/api/powerstations/${fleet}/events?status=INCOMPLETE`, other)).statusCode).toBe(404);
    expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
    expect((await events()).map((e) => e.id)).not.toContain(id);
  });

  it('refuses a dispatch on a VPP with no battery nodes with the spec’s text', async () => {
    const res = await post('/dispatch', body({ powerstation: solarOnly }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe('The selected Virtual Power Plant has no dispatchable nodes.');
  });

  it('refuses a dispatch on an FCAS VPP, which is registered for frequency services', async () => {
    const { db } = h().ctx;
    const org = (await db.selectFrom('powerstations').select('organisation_id').where('id', '=', fleet).executeTakeFirstOrThrow()).organisation_id;
    const t = nowS();
    const fcas = (
      await db
        .insertInto('powerstations')
        .values({ organisation_id: org, name: 'FCAS Raise', type: 'FCAS', state: null, duid: 'TESTVPP9', created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db.insertInto('vpp_nodes').values({ powerstation_id: fcas, node_id: batteries[1] }).execute();
    const res = await post('/dispatch', body({ powerstation: fcas }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(DISPATCH_MESSAGES.fcasNotDispatchable);
    expect((await get('/api/dispatches?limit=100')).json().data.dispatches.filter((d: { powerstation: { id: number } }) => d.powerstation.id === fcas)).toEqual(
      [],
    );
  });

  describe('bad input', () => {
    const cases: [string, object, string][] = [
      ['a start in the past', { startTime: hour - 3600 }, 'The dispatch cannot start in the past.'],
      ['a start off the 5-minute step', { startTime: hour + 7260 }, 'startTime must be on a 5-minute step.'],
      ['a duration off the 5-minute step', { duration: 3601 }, 'duration must be a whole number of 5-minute steps.'],
      ['a duration too short', { duration: 60 }, 'duration must be a whole number of seconds from 300 to 604800.'],
      ['power off the 0.1 kW step', { realPowerP: -1.25 }, 'realPowerP must be on a 0.1 kW step.'],
      // For an hour: both at their 5 kW limit to discharge; charging, each has room for 2 kWh ÷ 0.95.
      ['power beyond the constraints', { realPowerP: -50 }, 'realPowerP must be from -10 to 4.2 kW for this duration.'],
      ['a power factor off its step', { powerFactor: 0.72 }, 'powerFactor must be from 0.7 to 1 in steps of 0.05.'],
      ['a power factor when charging', { realPowerP: 2, powerFactor: 0.9, powerFactorLeadLag: 'LEADING' }, DISPATCH_MESSAGES.powerFactorWhenDischarging],
      ['a power factor below 1 without lead or lag', { powerFactor: 0.9 }, 'Choose leading or lagging when power factor is less than 1.'],
      ['lead or lag at power factor 1', { powerFactor: 1, powerFactorLeadLag: 'LAGGING' }, 'Leading/lagging can only be set when power factor is less than 1.'],
      ['an unknown strategy', { strategy: 'fastest' }, 'strategy must be one of greedy, uniform.'],
      ['no VPP', { powerstation: 'x' }, 'powerstation must be whole numbers from 1 to 2147483647.'],
    ];
    it.each(cases)('refuses %s', async (_, over, message) => {
      const res = await post('/dispatch', body({ startTime: hour + 20 * 86400, ...over }));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.message).toBe(message);
    });

    it('refuses bad ids and paging', async () => {
      expect((await get('/api/dispatches/abc')).json().data.message).toBe('The dispatch id must be a whole number from 1 to 2147483647.');
      expect((await get('/api/dispatches?limit=0')).json().data.message).toBe('limit must be a whole number from 1 to 200.');
    });
  });

  describe('permissions and other organisations', () => {
    it('answers 403 without fleet.dispatches.edit, or when choosing a strategy without fleet.dispatches.strategy', async () => {
      expect((await post('/dispatch', body({ startTime: hour + 30 * 86400 }), viewer)).statusCode).toBe(403);
      expect((await get('/dispatch/messages', viewer)).statusCode).toBe(403);
      expect((await post('/dispatch', body({ startTime: hour + 30 * 86400, strategy: 'greedy' }), noStrategy)).statusCode).toBe(403);
      expect((await post('/dispatch', body({ startTime: hour + 30 * 86400 }), noStrategy)).statusCode).toBe(200);
    });

    it('answers every read of a dispatch with 400 for a bad id, 403 without the dispatch area, 404 for another organisation', async () => {
      const id = (await post('/dispatch', body({ startTime: hour + 3 * 86400 }))).json().data.id;
      const outsider = await h().bearer((await h().user(await h().org('RETAILER', 'Outsider'), { permissions: ['fleet.powerstations.any'] })).username);
      for (const path of ['', '/prediction', '/remainingcharge', '/cost', '/response']) {
        const bad = await get(`/api/dispatches/0${path}`);
        expect(bad.statusCode, path).toBe(400);
        expect(bad.json().data.message).toBe('The dispatch id must be a whole number from 1 to 2147483647.');
        expect((await get(`/api/dispatches/${id}${path}`, outsider)).statusCode, path).toBe(403);
        expect((await get(`/api/dispatches/${id}${path}`, other)).statusCode, path).toBe(404);
        expect((await get(`/api/dispatches/${id}${path}`)).statusCode, path).toBe(200);
      }
    });

    it('answers 404 for another organisation’s VPP and dispatch, and lists none of them', async () => {
      const id = (await post('/dispatch', body({ startTime: hour + 40 * 86400 }))).json().data.id;
      expect((await post('/dispatch', body({ startTime: hour + 41 * 86400 }), other)).statusCode).toBe(404);
      expect((await get(`/api/dispatches/${id}`, other)).statusCode).toBe(404);
      expect((await post(`/dispatch/${id}/cancel`, undefined, other)).statusCode).toBe(404);
      expect((await get('/api/dispatches', other)).json().data).toEqual({ dispatches: [], total: 0 });
      expect((await get('/dispatch/messages', other)).json().data.messages).toEqual([]);
      expect((await get(`/api/dispatches/${id}`)).json().data.cancelledAt).toBeNull();
    });
  });

  it('lets exactly one of concurrent dispatches on shared nodes through, the others refused naming it', async () => {
    const at = hour + 5 * 86400;
    // Six at once through two VPPs sharing a battery: each one's check and insert run before the next one's check.
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post('/dispatch', body(i % 2 ? { powerstation: spare, startTime: at + 1800, realPowerP: -2 } : { startTime: at, realPowerP: -2 })),
      ),
    );
    const ok = replies.filter((r) => r.statusCode === 200);
    const refused = replies.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(1);
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400]);
    const winner = ok[0].json().data.id;
    for (const r of refused) expect(r.json().data.message).toBe(`These nodes are already in dispatch ${winner} at that time.`);
    expect((await post(`/dispatch/${winner}/cancel`)).statusCode).toBe(200);
  });
});
