import { RERT_MESSAGES } from '@vpp/shared/rert/messages';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { batteryVpp, dispatchUsers } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { callerOf } from '../auth/index.ts';
import { runDispatchEngine } from '../dispatches/index.ts';
import { rescheduleRert } from './rert.service.ts';

// Three reporting 5 kW batteries of 20 kWh holding 18 kWh.
describeEachDatabase('RERT dispatches: create, reschedule, cancel', (h) => {
  let headers: { authorization: string };
  let viewer: { authorization: string };
  let dispatcher: { authorization: string };
  let other: { authorization: string };
  let vpp: number;
  let batteries: number[];
  let userName: string;
  let userId: number;
  const now = nowS();
  const soon = now - (now % 300) + 3600;

  const post = (url: string, payload?: object, hdrs = headers) => h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });
  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const create = async (over: object = {}) => {
    const res = await post('/api/rert-dispatches', {
      powerstation: vpp,
      startTime: soon,
      duration: 1800,
      realPowerP: -6,
      customerMessage: 'Reserve called',
      ...over,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  const commands = (id: number) =>
    h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'start_ts', 'end_ts', 'params', 'status'])
      .where('source', '=', `dispatch:${id}`)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((c) => [c.node_id, Number(c.start_ts), Number(c.end_ts), JSON.parse(c.params).kw, c.status]));
  /** The event as if it had started a minute ago (its orders already sent). */
  const started = (id: number) =>
    h()
      .ctx.db.updateTable('events')
      .set({ start_time: now - 60 })
      .where('id', '=', id)
      .execute();

  beforeAll(async () => {
    let org: number;
    ({ org, userId, userName, headers, viewer, dispatcher, other } = await dispatchUsers(h(), ['fleet.rert.dispatches.view', 'fleet.powerstations.view']));
    ({ vpp, batteries } = await batteryVpp(h(), org, headers, 'Fleet', now));
  });

  it('creates a RERT dispatch the engine sends like a dispatch, listed apart from dispatches', async () => {
    const id = await create();
    const detail = await get(`/api/rert-dispatches/${id}`, viewer);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject({
      id,
      state: 'UPCOMING',
      reason: 'RERT',
      createdBy: userName,
      powerstation: { id: vpp, name: 'Fleet' },
      request: { startTime: soon, duration: 1800, realPowerP: -6, powerFactor: null, strategy: 'greedy', deploymentsRequested: 3 },
      customerMessage: { title: 'GridCredits Event', text: 'Reserve called' },
      audit: [{ action: 'CREATED', by: userName, detail: null }],
    });
    const list = (await get('/api/rert-dispatches?limit=10', viewer)).json().data;
    expect(list.dispatches.map((x: { id: number }) => x.id)).toContain(id);
    // A RERT dispatch is not a dispatch's page, nor a dispatch one of RERT's.
    expect((await get(`/api/dispatches/${id}`)).statusCode).toBe(404);
    expect((await get('/api/dispatches?limit=200')).json().data.dispatches.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await get('/api/rert-dispatches/messages', viewer)).json().data.messages[0]).toMatchObject({ customerMessage: 'Reserve called' });
    for (const part of ['prediction', 'remainingcharge', 'response']) expect((await get(`/api/rert-dispatches/${id}/${part}`, viewer)).statusCode).toBe(200);
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    expect(await commands(id)).toEqual(batteries.map((b) => [b, soon, soon + 1800, -2, 'PENDING']));
    await post(`/api/rert-dispatches/${id}/cancel`);
  });

  it('refuses a charge, and a lockout carries no message', async () => {
    const charge = await post('/api/rert-dispatches', { powerstation: vpp, startTime: soon, duration: 1800, realPowerP: 3 });
    expect(charge.statusCode).toBe(400);
    expect(charge.json().data.message).toBe(RERT_MESSAGES.dischargeOnly);
    const id = await create({ realPowerP: 0 });
    expect((await get(`/api/rert-dispatches/${id}`)).json().data.customerMessage).toBeNull();
    await post(`/api/rert-dispatches/${id}/cancel`);
  });

  it('reschedules: the old orders are withdrawn and the nodes get the new window, in one step, audited', async () => {
    const id = await create();
    await runDispatchEngine(h().ctx, now);
    const later = soon + 7200;
    const res = await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: later, duration: 3600, customerAppMessage: 'Moved to later' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await commands(id)).toEqual([
      ...batteries.map((b) => [b, soon, soon + 1800, -2, 'CANCELLED']),
      ...batteries.map((b) => [b, later, later + 3600, -2, 'PENDING']),
    ]);
    const detail = (await get(`/api/rert-dispatches/${id}`)).json().data;
    expect(detail.request).toMatchObject({ startTime: later, duration: 3600 });
    expect(detail.customerMessage.text).toBe('Moved to later');
    expect(detail.audit[1]).toMatchObject({ action: 'CHANGED', by: userName, detail: expect.stringContaining('for 60 min') });
    // The engine does not send them a second time.
    expect((await runDispatchEngine(h().ctx, now)).sent).not.toContain(id);
    expect(await commands(id)).toHaveLength(6);
    // Moved beyond the 24-hour lead: withdrawn now, the engine sends them when the lead is reached.
    const far = soon + 2 * 86_400;
    expect((await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: far, duration: 1800 })).statusCode).toBe(200);
    expect((await commands(id)).filter((c) => c[4] === 'PENDING')).toEqual([]);
    expect((await runDispatchEngine(h().ctx, now)).sent).not.toContain(id);
    const mark = await h().ctx.db.selectFrom('dispatches').select('orders_sent_at').where('event_id', '=', id).executeTakeFirstOrThrow();
    expect(mark.orders_sent_at).toBeNull();
    expect((await get(`/api/rert-dispatches/${id}`)).json().data.customerMessage.text).toBe('Moved to later');
    await post(`/api/rert-dispatches/${id}/cancel`);
  });

  it('cancels an upcoming one: its orders are withdrawn; a second cancel is a conflict', async () => {
    const id = await create();
    await runDispatchEngine(h().ctx, now);
    const res = await post(`/api/rert-dispatches/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await commands(id)).map((c) => c[4])).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    const detail = (await get(`/api/rert-dispatches/${id}`)).json().data;
    expect(detail.cancelledAt).toEqual(expect.any(Number));
    // Cancelled before its start, it will never run: it is over, not upcoming.
    expect(detail.state).toBe('COMPLETED');
    expect(detail.audit.map((a: { action: string }) => a.action)).toEqual(['CREATED', 'CANCELLED']);
    const again = await post(`/api/rert-dispatches/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().data.message).toBe(RERT_MESSAGES.alreadyCancelled);
    expect((await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: soon, duration: 1800 })).statusCode).toBe(409);
  });

  it('refuses both once in progress with 409, leaving the orders as they were', async () => {
    const id = await create();
    await runDispatchEngine(h().ctx, now);
    await started(id);
    const before = await commands(id);
    const move = await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: soon + 3600, duration: 1800 });
    expect(move.statusCode).toBe(409);
    expect(move.json().data.message).toBe(RERT_MESSAGES.onlyUpcoming);
    const cancel = await post(`/api/rert-dispatches/${id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().data.message).toBe(RERT_MESSAGES.onlyUpcoming);
    expect(await commands(id)).toEqual(before);
    expect((await get(`/api/rert-dispatches/${id}`)).json().data).toMatchObject({ state: 'INPROGRESS', cancelledAt: null });
  });

  it('a reschedule racing the start is decided in its transaction: checked upcoming, started by the time it writes, refused whole', async () => {
    const id = await create({ startTime: soon + 86_400 * 3 });
    const start = soon + 86_400 * 3;
    // The clock reads the start's last second for the checks before the transaction, the start itself inside it.
    const times = [start - 1];
    const clock = () => times.shift() ?? start;
    const authUser = await callerOf(h().ctx, userId, 'done', { kind: 'session', tokenId: 't', expiresAt: now + 3600 });
    if (!authUser) throw new Error('no user');
    await expect(rescheduleRert(h().ctx, authUser, id, { startTime: start + 3600, duration: 1800 }, clock)).rejects.toMatchObject({ statusCode: 409 });
    const detail = (await get(`/api/rert-dispatches/${id}`)).json().data;
    expect(detail.request.startTime).toBe(start);
    expect(detail.audit).toHaveLength(1);
    await post(`/api/rert-dispatches/${id}/cancel`);
  });

  it('concurrent reschedule and cancel: one order of events, never a cancelled dispatch with live orders', async () => {
    const id = await create();
    await runDispatchEngine(h().ctx, now);
    const [move, cancel] = await Promise.all([
      post(`/api/rert-dispatches/${id}/reschedule`, { startTime: soon + 3600, duration: 1800 }),
      post(`/api/rert-dispatches/${id}/cancel`),
    ]);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect([200, 409]).toContain(move.statusCode);
    expect((await commands(id)).filter((c) => c[4] === 'PENDING')).toEqual([]);
  });

  it('refuses callers without the permission, and another organisation sees no such RERT dispatch', async () => {
    const id = await create();
    expect((await get('/api/rert-dispatches', dispatcher)).statusCode).toBe(403);
    expect((await post('/api/rert-dispatches', { powerstation: vpp, startTime: soon, duration: 1800, realPowerP: -1 }, viewer)).statusCode).toBe(403);
    expect((await post(`/api/rert-dispatches/${id}/cancel`, undefined, viewer)).statusCode).toBe(403);
    expect((await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: soon, duration: 1800 }, viewer)).statusCode).toBe(403);
    expect((await get(`/api/rert-dispatches/${id}`, other)).statusCode).toBe(404);
    expect((await post(`/api/rert-dispatches/${id}/cancel`, undefined, other)).statusCode).toBe(404);
    expect((await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: soon, duration: 1800 }, other)).statusCode).toBe(404);
    const bad = await post(`/api/rert-dispatches/${id}/reschedule`, { startTime: 'soon', duration: 1800 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toContain('startTime');
    await post(`/api/rert-dispatches/${id}/cancel`);
  });
});
