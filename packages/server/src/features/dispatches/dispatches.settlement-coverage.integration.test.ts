import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';
import { settleDispatch } from './dispatches.settlement.service.ts';

// A dispatch is settled only once the fleet's telemetry covers its window: every connected node
// given its orders has reported at or after the settled end. Telemetry that arrives late (a
// backlog, the demo's backfilled history) is then settled as delivered, not as missing for good.
describeEachDatabase('dispatch settlement waits for the telemetry', (h) => {
  let headers: { authorization: string };
  let vpp: number;
  let ids: number[];
  const now = nowS();
  const start = now - (now % 300) + 600;
  const duration = 900;
  const end = start + duration;
  const due = end + 3600;

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Latecomers');
    headers = await h().bearer((await h().user(org, { permissions: PERMISSIONS.map((p) => p.name) })).username);
    await h().ctx.telemetry.ensurePartitions(now - 86400, now + 86400);
    ids = [];
    for (let k = 0; k < 3; k++) {
      const n = await node(h(), [org], { region: 'NSW1' });
      await h().ctx.telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 13, soc: null }]);
      ids.push(n.id);
    }
    vpp = (await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Late', nodes: ids } })).json().data.id;
  });

  it('waits until every connected ordered node has reported past the end, then settles what arrived', async () => {
    const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload: { powerstation: vpp, startTime: start, duration, realPowerP: -6 } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${id}`).execute();
    const settled = () => h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirst();

    // Due by the clock, but no node has reported past the end: neither queued nor settled.
    expect((await runDispatchEngine(h().ctx, due)).settling).not.toContain(id);
    expect(await settleDispatch(h().ctx, id, due)).toBe(false);
    expect(await settled()).toBeUndefined();

    // The window's readings arrive late, the first two nodes' through the end: the third still holds it back.
    const window = (nodeId: number, through: number) =>
      [0, -2, -2, -2, 0].slice(0, through).map((p, i) => ({ nodeId, ts: start - 300 + i * 300, dt: 300, meter_p: p, battery_p: p, remaining: 13 }));
    await h().ctx.telemetry.ingest([...window(ids[0], 5), ...window(ids[1], 5), ...window(ids[2], 2)]);
    expect((await runDispatchEngine(h().ctx, due + 60)).settling).not.toContain(id);
    expect(await settleDispatch(h().ctx, id, due + 60)).toBe(false);

    // The third node goes offline: it is not waited for, and its missing intervals count as incomplete.
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 1 }).where('id', '=', ids[2]).execute();
    expect((await runDispatchEngine(h().ctx, due + 120)).settling).toContain(id);
    expect(await settleDispatch(h().ctx, id, due + 120)).toBe(true);
    const s = await settled();
    expect([s?.nodes_responding, s?.nodes_complete]).toEqual([3, 2]);
    // Two nodes × 2 kW × 15 minutes delivered, as the late readings say.
    expect(s?.discharged_kwh).toBeCloseTo(1, 9);
  });
});
