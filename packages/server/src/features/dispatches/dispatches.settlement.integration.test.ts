import { MARKET_MESSAGES } from '@vpp/shared/market/rules';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { startOfPeriod } from '@vpp/shared/time';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { armCrashPoint } from '../../platform/crash-points.ts';
import { createWorker } from '../../platform/jobs.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';
import { settleDispatch, settleDispatchJob } from './dispatches.settlement.service.ts';

// Settlement from known prices and known 5-minute rollups, computed by hand:
//   prices (NSW1, $/MWh) of the three intervals: 1000, 2400, −600
//   node A (NSW1): baseline 0.5 kW, then −1.5 kW ×3        → −2, −2, −2 kW   → −1/6 kWh each, value −(1/6)(1 + 2.4 − 0.6) = −0.466667
//   node B (NSW1): baseline −0.3 kW, then −2.3, −2.3, 0.7   → −2, −2, +1 kW   → value −1/6 − 0.4 + (1/12)(−0.6) = −0.616667
//   node C (WEM, outside the NEM): 0, then −2 ×3           → −0.5 kWh, no price
//   node D (NSW1): no rollup for the second interval         → incomplete, left out of the totals
//   node E (NSW1): only 150 s of readings in the second interval → incomplete too
// cost −1.083333 → −1.08 AUD; sellPrice (1/6)(1000 + 2400 − 600 + 1000 + 2400) ÷ (5/6) = 1240;
// buyPrice −600 (B's one charging interval); coverage 3 of 5 responding nodes = 0.6.
describeEachDatabase('dispatch settlement', (h) => {
  let headers: { authorization: string };
  let network: { authorization: string };
  let vpp: number;
  let nodes: { a: number; b: number; c: number; d: number; e: number };
  const now = nowS();
  const start = now - (now % 300) + 600;
  const duration = 900;
  const end = start + duration;
  const prices = [1000, 2400, -600];

  const get = (url: string, as = headers) => h().app.inject({ method: 'GET', url, headers: as });
  const create = async (startTime: number) => {
    const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload: { powerstation: vpp, startTime, duration, realPowerP: -10 } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    return id;
  };
  /** Sends the orders and has every device accept them, as the fleet answers. */
  const accept = async (id: number) => {
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${id}`).execute();
  };
  const settlementRows = async (id: number) => ({
    dispatch: await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).execute(),
    nodes: await h().ctx.db.selectFrom('dispatch_settlement_nodes').selectAll().where('event_id', '=', id).orderBy('node_id').orderBy('day_start').execute(),
  });

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Sunrise');
    headers = await h().bearer((await h().user(org)).username);
    network = await h().bearer(
      (
        await h().user(await h().org('NETWORK', 'Poles'), {
          permissions: PERMISSIONS.map((p) => p.name).filter((p) => p !== 'fleet.administrator' && p !== 'fleet.dispatches.marketTrader'),
        })
      ).username,
    );
    const { db, telemetry } = h().ctx;
    await telemetry.ensurePartitions(now - 86400, now + 86400);
    const ids: number[] = [];
    for (const region of ['NSW1', 'NSW1', 'WEM', 'NSW1', 'NSW1']) {
      const n = await node(h(), [org], { region });
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 13, soc: null }]);
      ids.push(n.id);
    }
    nodes = { a: ids[0], b: ids[1], c: ids[2], d: ids[3], e: ids[4] };
    vpp = (await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Fleet', nodes: ids } })).json().data.id;
    // The 5-minute rollups: the baseline bucket before the start, then the event's three intervals.
    const power: Record<number, (number | null)[]> = {
      [nodes.a]: [0.5, -1.5, -1.5, -1.5],
      [nodes.b]: [-0.3, -2.3, -2.3, 0.7],
      [nodes.c]: [0, -2, -2, -2],
      [nodes.d]: [0, -2, null, -2],
      [nodes.e]: [0, -2, -2, -2],
    };
    const samples = Object.entries(power).flatMap(([id, ps]) =>
      ps.flatMap((p, i) =>
        p === null
          ? []
          : [{ nodeId: Number(id), ts: start - 300 + i * 300, dt: Number(id) === nodes.e && i === 2 ? 150 : 300, meter_p: p, battery_p: p, remaining: 13 }],
      ),
    );
    await telemetry.ingest(samples);
    // A reading of every node after the last window the tests settle: the fleet's telemetry covers them all.
    await telemetry.ingest(ids.map((nodeId) => ({ nodeId, ts: start + 8 * duration, dt: 300, meter_p: 0, battery_p: 0, remaining: 13 })));
    // Imported prices for the event's intervals (they replace the model's).
    await db
      .insertInto('market_prices')
      .values(prices.map((rrp, i) => ({ region: 'NSW1', interval_start: start + i * 300, rrp, source: 'AEMO' as const, published_at: now })))
      .execute();
  });

  afterEach(() => armCrashPoint(undefined));

  it('settles a dispatch from known prices and rollups, to the cent, with the coverage, once', async () => {
    const id = await create(start);
    await accept(id);
    expect((await get(`/api/dispatches/${id}/cost`)).json().data.type).toBe('DISPATCH_NOT_STARTED');
    // Not before SETTLEMENT_DELAY_S (an hour) after the end.
    expect(await settleDispatch(h().ctx, id, end + 3599)).toBe(false);
    expect((await settlementRows(id)).dispatch).toEqual([]);
    expect(await settleDispatch(h().ctx, id, end + 3600)).toBe(true);

    const cost = await get(`/api/dispatches/${id}/cost`);
    expect(cost.statusCode).toBe(200);
    const settled = cost.json().data;
    expect(settled).toMatchObject({ type: 'SETTLED', cost: -1.08, buyPrice: -600, sellPrice: 1240, coverage: 0.6, reason: null });
    // The quote kept at creation is the forecast's (the model's here), the difference the outcome less it.
    expect(settled.quote).toMatchObject({ forecastSource: 'MODEL' });
    expect(settled.quote.forecastIssuedAt).toBeLessThanOrEqual(settled.quote.quotedAt);
    expect(settled.difference).toBe(Math.round((-1.08 - settled.quote.cost) * 100) / 100 + 0);

    const rows = await settlementRows(id);
    expect(rows.dispatch).toHaveLength(1);
    const s = rows.dispatch[0];
    expect(Number(s.settled_at)).toBe(end + 3600);
    expect([Number(s.period_start), Number(s.period_end)]).toEqual([start, end]);
    expect(s.cost).toBeCloseTo(-1.083333, 5);
    expect(s.energy_kwh).toBeCloseTo(1 / 12 - 5 / 6 - 0.5, 9);
    expect(s.unpriced_kwh).toBeCloseTo(-0.5, 9);
    expect([s.nodes_responding, s.nodes_complete, s.coverage]).toEqual([5, 3, 0.6]);

    // Per node and local day of the node (the event may cross a Sydney midnight): the sums are the hand's.
    const days = new Set([0, 1, 2].map((k) => startOfPeriod(start + k * 300, 'day', 'Australia/Sydney')));
    expect(new Set(rows.nodes.map((r) => Number(r.day_start)))).toEqual(days);
    const perNode = (nodeId: number) => {
      const mine = rows.nodes.filter((r) => r.node_id === nodeId);
      return {
        kwh: mine.reduce((a, r) => a + r.delivered_kwh, 0),
        value: mine.every((r) => r.value === null) ? null : mine.reduce((a, r) => a + (r.value ?? 0), 0),
        complete: mine.map((r) => r.complete),
        region: mine[0]?.region,
      };
    };
    const a = perNode(nodes.a);
    expect([a.kwh, a.value as number]).toEqual([expect.closeTo(-0.5, 9), expect.closeTo(-0.466667, 5)]);
    expect(a.region).toBe('NSW1');
    const b = perNode(nodes.b);
    expect([b.kwh, b.value as number]).toEqual([expect.closeTo(-0.25, 9), expect.closeTo(-0.616667, 5)]);
    const c = perNode(nodes.c);
    expect([c.kwh, c.value, c.region]).toEqual([expect.closeTo(-0.5, 9), null, null]);
    expect(perNode(nodes.d).complete.every((x) => x === 0)).toBe(true);
    expect(perNode(nodes.e).complete.every((x) => x === 0)).toBe(true);
    expect(a.complete.every((x) => x === 1)).toBe(true);

    // Written once: a second run changes nothing.
    expect(await settleDispatch(h().ctx, id, end + 7200)).toBe(false);
    expect(await settlementRows(id)).toEqual(rows);
  });

  it('writes once when two runs settle the same dispatch at the same time', async () => {
    const id = await create(end);
    await accept(id);
    const due = end + duration + 3600;
    const results = await Promise.all([settleDispatch(h().ctx, id, due), settleDispatch(h().ctx, id, due), settleDispatch(h().ctx, id, due)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await settlementRows(id);
    expect(rows.dispatch).toHaveLength(1);
    // No telemetry for this window: every node is incomplete, nothing counted.
    expect(rows.dispatch[0].coverage).toBe(0);
    expect(rows.nodes).toEqual([]);
  });

  it('settles through the durable job once, and a rerun after the worker died before recording the job changes nothing', async () => {
    const id = await create(end + duration);
    await accept(id);
    const due = end + 2 * duration + 3600;
    expect((await runDispatchEngine(h().ctx, due - 1)).settling).not.toContain(id);
    expect((await runDispatchEngine(h().ctx, due)).settling).toContain(id);
    // Asked again (another minute, another process): queued once.
    expect((await runDispatchEngine(h().ctx, due + 60)).settling).not.toContain(id);
    const job = await h().ctx.db.selectFrom('jobs').selectAll().where('unique_key', '=', `dispatch-settle:${id}`).executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ id, at: due });
    const worker = createWorker(h().ctx, [settleDispatchJob], { leaseS: 60, concurrency: 1 });
    // The worker dies after the settlement committed, before the job is marked done: the job runs again.
    armCrashPoint('job:1:dispatch-settle', () => {
      throw new Error('killed');
    });
    await worker.runUntilIdle();
    armCrashPoint(undefined);
    const first = await settlementRows(id);
    expect(first.dispatch).toHaveLength(1);
    await h().ctx.db.updateTable('jobs').set({ run_at: 0 }).where('id', '=', job.id).execute();
    await worker.runUntilIdle();
    const after = await h().ctx.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect([after.status, after.attempts]).toEqual(['done', 2]);
    expect(await settlementRows(id)).toEqual(first);
  });

  it('settles a cancelled dispatch up to its cancel', async () => {
    const id = await create(end + 4 * duration);
    await accept(id);
    // As if cancelled 5 minutes into the event over the known rollups (the API cancels at the real now).
    await h()
      .ctx.db.updateTable('events')
      .set({ start_time: start, cancelled_at: start + 300 })
      .where('id', '=', id)
      .execute();
    expect(await settleDispatch(h().ctx, id, start + 300 + 3599)).toBe(false);
    expect(await settleDispatch(h().ctx, id, start + 300 + 3600)).toBe(true);
    // The first interval only: A, B, D and E each −1/6 kWh at 1000 $/MWh (C unpriced); every node complete over it.
    expect((await get(`/api/dispatches/${id}/cost`)).json().data).toMatchObject({
      type: 'SETTLED',
      cost: -0.67,
      buyPrice: null,
      sellPrice: 1000,
      coverage: 1,
      reason: null,
    });
    const [row] = (await settlementRows(id)).dispatch;
    expect([Number(row.period_start), Number(row.period_end), row.nodes_complete]).toEqual([start, start + 300, 5]);
  });

  it('hides the settled cost from a NETWORK user without fleet.dispatches.marketTrader', async () => {
    const res = await get('/api/dispatches/1/cost', network);
    expect(res.statusCode).toBe(403);
    expect(res.json().data.message).toBe(MARKET_MESSAGES.hidden);
  });
});
