import { CUSTOMER_APP_MESSAGES } from '@vpp/shared/customer-app/messages';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { appBatteryVpp } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from '../dispatches/index.ts';

// Issue 34 item 12: the customer app reads its home's messages (delivered), marks them read and opts
// out of a dispatch; the console sees each node's copy.
describeEachDatabase('the customer app: messages, read state and opt-outs', (h) => {
  let headers: { authorization: string };
  let org: number;
  let vpp: number;
  let batteries: number[];
  let tokens: Map<number, string>;
  const now = nowS();
  const soon = now - (now % 300) + 600;

  const post = (url: string, payload?: object, hdrs: Record<string, string> = headers) =>
    h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });
  const get = (url: string, hdrs: Record<string, string> = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const app = (nodeId: number) => ({ authorization: `Bearer ${tokens.get(nodeId)}` });
  const dispatch = async (payload: object) => {
    const res = await post('/dispatch', { powerstation: vpp, duration: 1800, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Hearth Energy');
    headers = await h().bearer((await h().user(org)).username);
    ({ vpp, batteries, tokens } = await appBatteryVpp(h(), org, headers, 'Hearth', now));
  });

  it("answers the app its home's messages once sent, records them delivered and read as the app says; the console counts each node's copy", async () => {
    const id = await dispatch({ startTime: soon, realPowerP: -6, customerMessage: 'Please keep your battery on tonight.' });
    // Not sent yet (the engine has not run): the app has nothing, the console counts nothing.
    expect((await get('/customer-app/messages', app(batteries[0]))).json().data.messages.filter((m: { event: number }) => m.event === id)).toEqual([]);
    await runDispatchEngine(h().ctx, now);
    const res = await get('/customer-app/messages', app(batteries[0]));
    expect(res.statusCode, res.body).toBe(200);
    const [m] = res.json().data.messages.filter((x: { event: number }) => x.event === id);
    expect(m).toEqual({
      event: id,
      type: 'DISPATCH',
      title: DISPATCH_MESSAGES.defaultMessageTitle,
      message: 'Please keep your battery on tonight.',
      startTime: soon,
      duration: 1800,
      sentAt: now,
      deliveredAt: null,
      readAt: null,
      optedOutAt: null,
      canOptOut: true,
    });
    // The app acknowledges the message on arrival; the first time stands.
    const delivered = await post(`/customer-app/messages/${id}/delivered`, undefined, app(batteries[0]));
    expect(delivered.statusCode, delivered.body).toBe(200);
    const deliveredAt = delivered.json().data.deliveredAt;
    expect((await post(`/customer-app/messages/${id}/delivered`, undefined, app(batteries[0]))).json().data.deliveredAt).toBe(deliveredAt);
    expect((await get('/customer-app/messages', app(batteries[0]))).json().data.messages.find((x: { event: number }) => x.event === id).deliveredAt).toBe(
      deliveredAt,
    );
    // Read: delivered too.
    const read = await post(`/customer-app/messages/${id}/read`, undefined, app(batteries[1]));
    expect(read.statusCode, read.body).toBe(200);
    const readAt = read.json().data.readAt;
    // The first read stands.
    expect((await post(`/customer-app/messages/${id}/read`, undefined, app(batteries[1]))).json().data.readAt).toBe(readAt);

    const r = await get(`/api/events/${id}/customer-messages`);
    expect(r.statusCode, r.body).toBe(200);
    const data = r.json().data;
    expect(data.summary).toEqual({ sent: 3, delivered: 2, read: 1, optedOut: 0 });
    expect(data.total).toBe(3);
    expect(
      data.receipts.map((x: { deployment_uid: number; sentAt: number; readAt: number | null; deliveredAt: number | null }) => [
        x.deployment_uid,
        x.sentAt,
        x.deliveredAt !== null,
        x.readAt,
      ]),
    ).toEqual([
      [batteries[0], now, true, null],
      [batteries[1], now, true, readAt],
      [batteries[2], now, false, null],
    ]);
    const paged = (await get(`/api/events/${id}/customer-messages?limit=1&offset=2`)).json().data;
    expect(paged.receipts.map((x: { deployment_uid: number }) => x.deployment_uid)).toEqual([batteries[2]]);
    expect(paged.total).toBe(3);
    expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
  });

  it('opts a home out of a dispatch: its orders end, the console sees it, twice is the same; an ended or cancelled one is 409', async () => {
    const id = await dispatch({ startTime: soon, realPowerP: -6, customerMessage: 'Evening event' });
    await runDispatchEngine(h().ctx, now);
    const res = await post(`/customer-app/events/${id}/opt-out`, undefined, app(batteries[2]));
    expect(res.statusCode, res.body).toBe(200);
    const at = res.json().data.optedOutAt;
    expect((await post(`/customer-app/events/${id}/opt-out`, undefined, app(batteries[2]))).json().data.optedOutAt).toBe(at);
    const orders = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'status', 'revise'])
      .where('source', '=', `dispatch:${id}`)
      .orderBy('node_id')
      .execute();
    expect(orders.map((o) => [o.node_id, o.status])).toEqual([
      [batteries[0], 'PENDING'],
      [batteries[1], 'PENDING'],
      [batteries[2], 'CANCELLED'],
    ]);
    // The device is told its order is withdrawn.
    expect(orders[2].revise).toBe(1);
    const [m] = (await get('/customer-app/messages', app(batteries[2]))).json().data.messages.filter((x: { event: number }) => x.event === id);
    expect(m).toMatchObject({ optedOutAt: at, canOptOut: false });
    // Another customer declines on the device: its answer to the orders (docs/devices.md) counts as an opt-out too.
    await h()
      .ctx.db.updateTable('node_commands')
      .set({ status: 'OPTED_OUT', responded_at: at + 1 })
      .where('source', '=', `dispatch:${id}`)
      .where('node_id', '=', batteries[1])
      .execute();
    const data = (await get(`/api/events/${id}/customer-messages`)).json().data;
    expect(data.summary).toMatchObject({ sent: 3, optedOut: 2 });
    expect(data.receipts.map((x: { deployment_uid: number; optedOutAt: number | null }) => [x.deployment_uid, x.optedOutAt])).toEqual([
      [batteries[0], null],
      [batteries[1], at + 1],
      [batteries[2], at],
    ]);

    expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
    const late = await post(`/customer-app/events/${id}/opt-out`, undefined, app(batteries[0]));
    expect(late.statusCode).toBe(409);
    expect(late.json().data.message).toBe(CUSTOMER_APP_MESSAGES.optOutClosed);
  });

  it('refuses a bad token (401), a lockout that sent no message and an event of no part (404), and hides other organisations', async () => {
    const lockout = await dispatch({ startTime: soon + 3600, realPowerP: 0 });
    await runDispatchEngine(h().ctx, now);
    expect((await get('/customer-app/messages', {})).statusCode).toBe(401);
    const bad = await get('/customer-app/messages', { authorization: 'Bearer nat_nothing' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().data.message).toBe(CUSTOMER_APP_MESSAGES.badNodeToken);
    // A console session is not a node token.
    expect((await post(`/customer-app/messages/${lockout}/read`, undefined, headers)).statusCode).toBe(401);
    expect((await post(`/customer-app/events/${lockout}/opt-out`, undefined, app(batteries[0]))).statusCode).toBe(404);
    expect((await post(`/customer-app/messages/${lockout}/read`, undefined, app(batteries[0]))).statusCode).toBe(404);
    expect((await post(`/customer-app/messages/${lockout}/delivered`, undefined, app(batteries[0]))).statusCode).toBe(404);
    expect((await get(`/api/events/${lockout}/customer-messages`)).json().data.summary).toEqual({ sent: 0, delivered: 0, read: 0, optedOut: 0 });
    const other = await h().org('RETAILER', 'Elsewhere');
    const theirs = await h().bearer((await h().user(other)).username);
    expect((await get(`/api/events/${lockout}/customer-messages`, theirs)).statusCode).toBe(404);
    // Allowed to see grid outages but not dispatches: this dispatch's copies are not theirs to see.
    const outagesOnly = await h().bearer((await h().user(org, { username: 'outages-only', permissions: ['fleet.powerstations.gridOutages.any'] })).username);
    expect((await get(`/api/events/${lockout}/customer-messages`, outagesOnly)).statusCode).toBe(403);
    expect((await get(`/api/events/${lockout}/customer-messages?limit=0`)).statusCode).toBe(400);
    expect((await post(`/dispatch/${lockout}/cancel`)).statusCode).toBe(200);
  });
});
