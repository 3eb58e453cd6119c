import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { batteryVpp } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';

// Three reporting 5 kW batteries of 20 kWh holding 18 kWh: enough for any of these dispatches.
describeEachDatabase('the dispatch engine: orders through the fleet control interface', (h) => {
  let headers: { authorization: string };
  let vpp: number;
  let batteries: number[];
  const now = nowS();
  // Soon enough that the nodes' last reading still counts as reporting at the start.
  const soon = now - (now % 300) + 600;

  const post = (url: string, payload?: object) => h().app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const commands = (id: number) =>
    h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'start_ts', 'end_ts', 'params', 'status'])
      .where('source', '=', `dispatch:${id}`)
      .orderBy('node_id')
      .orderBy('id')
      .execute();
  const dispatch = async (payload: object) => {
    const res = await post('/dispatch', { powerstation: vpp, duration: 1800, customerMessage: 'Thank you', ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Sunrise');
    headers = await h().bearer((await h().user(org)).username);
    ({ vpp, batteries } = await batteryVpp(h(), org, headers, 'Fleet', now));
  });

  it('sends each node its share within 24 hours of the start, once, with the customer message recorded per node', async () => {
    const id = await dispatch({ startTime: soon, realPowerP: -6 });
    const later = await dispatch({ startTime: soon + 2 * 86400, realPowerP: -6 });
    const first = await runDispatchEngine(h().ctx, now);
    expect(first.sent).toEqual([id]);
    const sent = await commands(id);
    expect(sent.map((c) => [c.node_id, c.start_ts, c.end_ts, JSON.parse(c.params), c.status])).toEqual(
      batteries.map((b) => [b, soon, soon + 1800, { kind: 'battery_power', kw: -2 }, 'PENDING']),
    );
    expect(await commands(later)).toEqual([]);
    // Run again (another process, or after a restart): nothing is sent twice.
    expect((await runDispatchEngine(h().ctx, now)).sent).toEqual([]);
    expect(await commands(id)).toHaveLength(3);
    const nodes = await h().ctx.db.selectFrom('dispatch_nodes').select(['node_id', 'orders_sent_at', 'message_sent_at']).where('event_id', '=', id).execute();
    expect(nodes.map((n) => [n.node_id, Number(n.orders_sent_at), Number(n.message_sent_at)])).toEqual(batteries.map((b) => [b, now, now]));

    // A node that stops reporting during the event is dropped and its share goes to the others.
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 1 }).where('id', '=', batteries[2]).execute();
    const during = soon + 60;
    expect((await runDispatchEngine(h().ctx, during)).reallocated).toEqual([id]);
    // Once per 5 minutes.
    expect((await runDispatchEngine(h().ctx, during + 30)).reallocated).toEqual([]);
    const after = await commands(id);
    expect(after.filter((c) => c.node_id === batteries[2]).map((c) => c.status)).toEqual(['CANCELLED']);
    for (const b of batteries.slice(0, 2))
      expect(after.filter((c) => c.node_id === b).map((c) => [c.start_ts, c.end_ts, JSON.parse(c.params).kw, c.status])).toEqual([
        [soon, soon + 1800, -2, 'CANCELLED'],
        [during, soon + 1800, -3, 'PENDING'],
      ]);
    const detail = (await h().app.inject({ method: 'GET', url: `/api/dispatches/${id}`, headers })).json().data;
    expect(detail.request.deploymentsRequested).toBe(2);
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 0 }).where('id', '=', batteries[2]).execute();

    // Cancelling withdraws every order still to come.
    expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
    expect((await commands(id)).filter((c) => c.status !== 'CANCELLED')).toEqual([]);
    await post(`/dispatch/${later}/cancel`);
  });

  it('sends a lockout as 0 kW to every battery, without a message', async () => {
    const id = await dispatch({ startTime: soon + 3600, realPowerP: 0 });
    expect((await runDispatchEngine(h().ctx, now)).sent).toEqual([id]);
    expect((await commands(id)).map((c) => JSON.parse(c.params).kw)).toEqual([0, 0, 0]);
    const nodes = await h().ctx.db.selectFrom('dispatch_nodes').select('message_sent_at').where('event_id', '=', id).execute();
    expect(nodes.map((n) => n.message_sent_at)).toEqual([null, null, null]);
  });
});
