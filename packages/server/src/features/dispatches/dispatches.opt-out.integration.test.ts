import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { appBatteryVpp } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { measureDispatch } from './dispatches.measurement.service.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';
import { findDispatch } from './dispatches.repo.ts';

// Issue 34 item 12: a customer's opt-out in the app reaches the dispatch's figures: its node's share
// is rejected as opted out, and a re-allocation gives it no orders again.
describeEachDatabase('a customer opting out of a dispatch', (h) => {
  let headers: { authorization: string };
  let vpp: number;
  let batteries: number[];
  let tokens: Map<number, string>;
  const now = nowS();
  const soon = now - (now % 300) + 600;
  const post = (url: string, payload?: object, hdrs: Record<string, string> = headers) =>
    h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Optout Energy');
    headers = await h().bearer((await h().user(org)).username);
    ({ vpp, batteries, tokens } = await appBatteryVpp(h(), org, headers, 'Optout', now));
  });

  it("counts the node's whole order as rejected, opted out, and leaves it out of a re-allocation", async () => {
    const res = await post('/dispatch', { powerstation: vpp, startTime: soon, duration: 1800, realPowerP: -6, customerMessage: 'Evening' });
    const id = res.json().data.id as number;
    await runDispatchEngine(h().ctx, now);
    const out = await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${tokens.get(batteries[0])}` });
    expect(out.statusCode, out.body).toBe(200);
    const d = await findDispatch(h().ctx.db, null, id);
    if (!d) throw new Error('no dispatch');
    const m = await measureDispatch(h().ctx, d, soon + 1800);
    // Each 5-minute interval: the opted-out node's 2 kW is rejected as opted out; the others never answered (no device here).
    for (const iv of m.intervals) expect(iv.rejectedKw).toEqual({ optedOut: -2, offline: -4, notAllocated: 0 });
    expect(m.nodes.find((n) => n.nodeId === batteries[0])?.answer).toBe('OPTED_OUT');

    // Another node stops reporting during the event: the re-allocation shares the request among the rest, not the opted-out one.
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 1 }).where('id', '=', batteries[2]).execute();
    expect((await runDispatchEngine(h().ctx, soon + 60)).reallocated).toEqual([id]);
    const live = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'params'])
      .where('source', '=', `dispatch:${id}`)
      .where('status', '=', 'PENDING')
      .execute();
    expect(live.map((c) => [c.node_id, JSON.parse(c.params).kw])).toEqual([[batteries[1], -5]]);
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 0 }).where('id', '=', batteries[2]).execute();
  });
});
