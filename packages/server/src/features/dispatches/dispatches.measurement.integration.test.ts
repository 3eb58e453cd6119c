import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { startOfPeriod } from '@vpp/shared/time';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import type { AuthUser } from '../../platform/guard.ts';
import type { Sample } from '../../telemetry/index.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { callerOf } from '../auth/index.ts';
import { forecast } from './dispatches.engine.ts';
import { expectedDelivery } from './dispatches.forecast.service.ts';
import { BASELINE, comparableDays } from './dispatches.measurement.service.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';
import { dispatchResponse } from './dispatches.outcome.service.ts';
import { settleDispatch } from './dispatches.settlement.service.ts';

// Two dispatches settled against their stated baselines, computed by hand (docs/settlement.md).
//
// Dispatch 1, request −10 kW over three intervals at 100, 200 and 300 $/MWh; orders set to −3 kW for A, B, C:
//   A accepts. Comparable days (the three most recent of the event day's kind with data): meter 1.0, 1.2,
//   1.4 kW over the adjustment window [start − 3 h, start − 1 h) and 2, 3, 4 kW at the event's
//   intervals: unadjusted baseline 3 kW; same day 1.5 kW in the window, so the adjustment is
//   1.5 − 1.2 = +0.3 kW and the baseline 3.3 kW. Measured 0.3 kW: delivered −3 kW, −0.25 kWh an
//   interval, −0.75 kWh, valued −0.25 × (0.1 + 0.2 + 0.3) = −0.15 AUD.
//   B opts out (undisturbed): the same history, same day 1.2 kW (no adjustment), baseline 3 kW;
//   measured 3.3, 2.7, 3.0: baseline error (0.3 + 0.3 + 0) ÷ 9 = 1/15.
//   C accepts and sends nothing during the event: not delivered, offline.
//   requested −2.5 kWh = delivered −0.75 + rejected (opted out −0.75, not allocated −0.25) + not delivered (offline −0.75).
//   Settled: cost −0.15, coverage 1 of 2 responding nodes (C incomplete).
// Dispatch 2, −1 kW for D only, below the home's own self-consumption: D's battery was covering its
//   2.27 kW load (meter 0 kW in the hour before the start, no comparable days: a flat baseline of
//   0). Told to give 1 kW, it gives 1 kW and the meter imports 1.27 kW: delivered +1.27 kW, the wrong
//   way, +0.3175 kWh, costing 1.27/12 × (0.1 + 0.2 + 0.3) = 0.0635 AUD; D's customer is credited 0.
describeEachDatabase('dispatch measurement against a stated baseline', (h) => {
  let headers: { authorization: string };
  let userId: number;
  let ids: { a: number; b: number; c: number; d: number };
  let vpp: number;
  let small: number;
  const now = nowS();
  // Tomorrow's 14:00 in Sydney (the comparable days are then all in the past, whatever the hour now).
  const zone = 'Australia/Sydney';
  const start = startOfPeriod(startOfPeriod(now, 'day', zone) + 36 * 3600, 'day', zone) + 14 * 3600;
  const duration = 900;
  const prices = [100, 200, 300];

  const create = async (payload: object) => {
    const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  const setOrders = async (id: number, orders: Record<number, number>, accepted: number[], optedOut: number[]) => {
    for (const [nodeId, kw] of Object.entries(orders))
      await h()
        .ctx.db.updateTable('dispatch_nodes')
        .set({ intervals: JSON.stringify([{ start, end: start + duration, kw }]) })
        .where('event_id', '=', id)
        .where('node_id', '=', Number(nodeId))
        .execute();
    await h()
      .ctx.db.updateTable('node_commands')
      .set({ status: 'ACCEPTED', responded_at: now })
      .where('source', '=', `dispatch:${id}`)
      .where('node_id', 'in', accepted)
      .execute();
    if (optedOut.length)
      await h()
        .ctx.db.updateTable('node_commands')
        .set({ status: 'OPTED_OUT', responded_at: now })
        .where('source', '=', `dispatch:${id}`)
        .where('node_id', 'in', optedOut)
        .execute();
  };

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Baseline Energy');
    const u = await h().user(org);
    userId = u.id;
    headers = await h().bearer(u.username);
    const { db, telemetry } = h().ctx;
    const days = comparableDays(start, zone).slice(0, 3);
    await telemetry.ensurePartitions(days[2] - 86_400, start + 86_400);
    const made: number[] = [];
    for (let i = 0; i < 4; i++) {
      const n = await node(h(), [org], { region: 'NSW1' });
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: 70 }]);
      made.push(n.id);
    }
    ids = { a: made[0], b: made[1], c: made[2], d: made[3] };
    vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Measured', nodes: made.slice(0, 3) } })
    ).json().data.id;
    const samples: Sample[] = [];
    const at = (nodeId: number, ts: number, meter: number, battery = 0) =>
      samples.push({ nodeId, ts, dt: 300, meter_p: meter, battery_p: battery, soc: 70, remaining: 10 });
    const offset = start - startOfPeriod(start, 'day', zone);
    days.forEach((day, j) => {
      for (const nodeId of [ids.a, ids.b]) {
        for (let ts = day + offset - BASELINE.adjustFromS; ts < day + offset - BASELINE.adjustToS; ts += 300) at(nodeId, ts, [1.0, 1.2, 1.4][j]);
        for (let k = 0; k < 3; k++) at(nodeId, day + offset + k * 300, [2, 3, 4][j]);
      }
    });
    // The same day: the adjustment window (A 1.5 kW, B 1.2 kW), then the event.
    for (let ts = start - BASELINE.adjustFromS; ts < start - BASELINE.adjustToS; ts += 300) {
      at(ids.a, ts, 1.5);
      at(ids.b, ts, 1.2);
    }
    for (const [k, p] of [0.3, 0.3, 0.3].entries()) at(ids.a, start + k * 300, p, -3);
    for (const [k, p] of [3.3, 2.7, 3.0].entries()) at(ids.b, start + k * 300, p);
    // D, the second dispatch, an hour later: the hour before it at 0 kW (the battery covering the load), then −1 kW from the battery.
    const start2 = start + 2 * 3600;
    for (let ts = start2 - 3600; ts < start2; ts += 300) at(ids.d, ts, 0, -2.27);
    for (let k = 0; k < 3; k++) at(ids.d, start2 + k * 300, 1.27, -1);
    await telemetry.ingest(samples);
    await telemetry.ingest(made.map((nodeId) => ({ nodeId, ts: start2 + 3 * 3600, dt: 300, meter_p: 0, battery_p: 0, soc: 70, remaining: 10 })));
    await db
      .insertInto('market_prices')
      .values(
        [start, start2].flatMap((s) =>
          prices.map((rrp, i) => ({ region: 'NSW1', interval_start: s + i * 300, rrp, source: 'AEMO' as const, published_at: now })),
        ),
      )
      .onConflict((oc) => oc.columns(['region', 'interval_start']).doUpdateSet((eb) => ({ rrp: eb.ref('excluded.rrp'), source: 'AEMO' as const })))
      .execute();
    const vpp2 = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Small', nodes: [ids.d] } })
    ).json().data.id;
    small = await create({ powerstation: vpp2, startTime: start2, duration, realPowerP: -1 });
  });

  it('measures a dispatch per node and interval against its stated baseline, explains the request, and settles on that basis', async () => {
    const id = await create({ powerstation: vpp, startTime: start, duration, realPowerP: -10 });
    expect((await runDispatchEngine(h().ctx, start - 3600)).sent).toContain(id);
    await setOrders(id, { [ids.a]: -3, [ids.b]: -3, [ids.c]: -3 }, [ids.a, ids.c], [ids.b]);

    const res = await h().app.inject({ method: 'GET', url: `/api/dispatches/${id}/response`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json().data.measurement;
    expect(m.totals).toEqual({
      requestedKwh: -2.5,
      baselineKwh: 0.825,
      measuredKwh: 0.075,
      deliveredKwh: -0.75,
      rejectedKwh: { optedOut: -0.75, offline: 0, notAllocated: -0.25 },
      notDeliveredKwh: { offline: -0.75, stateOfCharge: 0, inverterLimit: 0, household: 0 },
    });
    expect(m.intervals[0]).toMatchObject({ ts: start, requestedKw: -10, baselineKw: 3.3, measuredKw: 0.3, deliveredKw: -3, nodesMeasured: 1 });
    expect(m.baselineMethods).toEqual({ counterfactual: 0, comparableDays: 1, sameDay: 0, none: 1 });
    expect(m.baselineError.nodes).toBe(1);
    expect(m.baselineError.median).toBeCloseTo(1 / 15, 9);

    expect(await settleDispatch(h().ctx, id, start + duration + 3600)).toBe(true);
    const s = await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    expect(s.cost).toBeCloseTo(-0.15, 9);
    expect(s.discharged_kwh).toBeCloseTo(0.75, 9);
    expect([s.nodes_responding, s.nodes_complete, s.coverage]).toEqual([2, 1, 0.5]);
    expect(s.requested_kwh).toBeCloseTo(-2.5, 9);
    expect(s.baseline_kwh).toBeCloseTo(0.825, 9);
    expect(s.measured_kwh).toBeCloseTo(0.075, 9);
    expect(s.rejected_kwh).toBeCloseTo(-1, 9);
    expect(s.not_delivered_kwh).toBeCloseTo(-0.75, 9);
    expect(s.baseline_error).toBeCloseTo(1 / 15, 9);
    const nodes = await h().ctx.db.selectFrom('dispatch_settlement_nodes').selectAll().where('event_id', '=', id).where('node_id', '=', ids.a).execute();
    expect(nodes.reduce((a, r) => a + (r.baseline_kwh ?? 0), 0)).toBeCloseTo(0.825, 9);
    // The VPP's baseline accuracy now counts this settled dispatch.
    const again = (await h().app.inject({ method: 'GET', url: `/api/dispatches/${id}/response`, headers })).json().data.measurement;
    expect(again.vppBaselineError).toEqual({ dispatches: 1, median: expect.closeTo(1 / 15, 9) });
    // The page reproduces the money (issue 33 "Done when"): each interval's settled price and the value
    // of its delivered energy, −3 kW × 300 s ÷ 3600 = −0.25 kWh × 100, 200, 300 $/MWh ÷ 1000; their sum the settled cost.
    // (As of after its end: an interval is priced once it has ended; this dispatch is tomorrow's.)
    const priced = (
      await dispatchResponse(h().ctx, (await callerOf(h().ctx, userId, 'done', { kind: 'download' })) as AuthUser, id, 'DISPATCH', start + duration + 3600)
    ).measurement;
    expect(priced.intervals.map((iv) => [iv.prices, iv.valueAud])).toEqual([
      [{ NSW1: 100 }, -0.025],
      [{ NSW1: 200 }, -0.05],
      [{ NSW1: 300 }, -0.075],
    ]);
    expect(priced.intervals.reduce((a, iv) => a + (iv.valueAud ?? 0), 0)).toBeCloseTo(s.cost, 9);
    // Not yet ended by the clock: no price shown.
    expect(again.intervals.map((iv: { valueAud: number | null }) => iv.valueAud)).toEqual([null, null, null]);
  });

  it('settles a small discharge below the homes’ own use on the stated basis: delivered the wrong way, a cost, no debit to the customer', async () => {
    // Its orders went out with the first dispatch's (the engine sends every dispatch within a day of its start).
    await runDispatchEngine(h().ctx, start - 3600);
    expect(
      (await h().ctx.db.selectFrom('dispatches').select('orders_sent_at').where('event_id', '=', small).executeTakeFirstOrThrow()).orders_sent_at,
    ).not.toBeNull();
    const start2 = start + 2 * 3600;
    await h()
      .ctx.db.updateTable('dispatch_nodes')
      .set({ intervals: JSON.stringify([{ start: start2, end: start2 + duration, kw: -1 }]) })
      .where('event_id', '=', small)
      .execute();
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${small}`).execute();
    const m = (await h().app.inject({ method: 'GET', url: `/api/dispatches/${small}/response`, headers })).json().data.measurement;
    expect(m.totals.deliveredKwh).toBeCloseTo(0.318, 3);
    // Requested −0.25 kWh = delivered +0.3175 + not delivered −0.5675 (the home's own battery use, already in its baseline).
    expect(m.totals.notDeliveredKwh.household).toBeCloseTo(-0.5675, 2);
    expect(m.baselineMethods).toEqual({ counterfactual: 0, comparableDays: 0, sameDay: 1, none: 0 });
    expect(await settleDispatch(h().ctx, small, start2 + duration + 3600)).toBe(true);
    const s = await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', small).executeTakeFirstOrThrow();
    expect(s.charged_kwh).toBeCloseTo(0.3175, 9);
    expect(s.cost).toBeCloseTo(0.0635, 9);
    const credits = await h().ctx.db.selectFrom('billing_items').selectAll().where('event_id', '=', small).execute();
    expect(credits.every((c) => Number(c.cost_cents) === 0)).toBe(true);
  });
});

// The metered counterfactual, computed by hand (docs/settlement.md): a −5 kW dispatch over three
// intervals at 100, 200 and 300 $/MWh; E and F (5 kW, 13.5 kWh batteries) ordered −3 and −2 kW, F opts out.
//   E's inverter reports a load of 2 kW and no solar through the event. Its stored energy: 3.0 kWh in
//   the bucket before the start (battery idle), so 3.0 kWh at the start; the lowest it went on its
//   own in the 3 days before, 2.9 kWh. On its own the battery would cover the 2 kW load down to
//   2.9 kWh: in the first interval at most (3.0 − 2.9) × 0.95 ÷ (5/60) = 1.14 kW, then nothing.
//   Baseline 2 − 1.14 = 0.86 kW, then 2 and 2 kW. Measured: the battery gave 3 kW, the meter read
//   −1 kW. Delivered −1.86, −3, −3 kW: −7.86 ÷ 12 = −0.655 kWh, valued (−1.86 × 100 − 3 × 200 −
//   3 × 300) ÷ 12,000 = −0.1405 AUD.
//   F (undisturbed): load 1.0, 0.9, 1.0 kW and solar 3 kW, its battery at 13.4 kWh: on its own it
//   would take 0.1 × 12 ÷ 0.95 = 1.263 kW of the 2 kW surplus, then be full. Baseline 1 + 1.263 − 3 =
//   −0.737, then −2.1 and −2 kW; its meter read −0.8, −2.1, −2: baseline error 0.0632 ÷ 4.9 = 1.29 %.
describeEachDatabase('the metered counterfactual baseline', (h) => {
  it('baselines a home from its measured load and solar with its battery on its own, and settles on that basis', async () => {
    const org = await h().org('RETAILER', 'Counterfactual Energy');
    const u = await h().user(org);
    const headers = await h().bearer(u.username);
    const { db, telemetry } = h().ctx;
    const now = nowS();
    // An hour from now: the batteries' forecast state at the start still holds the request.
    const start = now - (now % 300) + 3600;
    const duration = 900;
    const e = (await node(h(), [org], { region: 'NSW1' })).id;
    const f = (await node(h(), [org], { region: 'NSW1' })).id;
    await telemetry.ensurePartitions(start - 4 * 86_400, start + 86_400);
    // Their state now, for the dispatch's constraints.
    await telemetry.ingest([e, f].map((nodeId) => ({ nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: 70 })));
    const vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Counterfactual', nodes: [e, f] } })
    ).json().data.id;
    const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload: { powerstation: vpp, startTime: start, duration, realPowerP: -5 } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runDispatchEngine(h().ctx, start - 3600)).sent).toContain(id);
    // The readings: the days before, the bucket before the start and the event (written after the orders went out).
    const samples: Sample[] = [
      { nodeId: e, ts: start - 2 * 86_400, dt: 300, remaining: 2.9, soc: 21, battery_p: 0 },
      { nodeId: f, ts: start - 300, dt: 300, remaining: 13.4, soc: 99, battery_p: 0 },
      { nodeId: e, ts: start - 300, dt: 300, remaining: 3.0, soc: 22, battery_p: 0, meter_p: 2, house_p: 2, sga_p: 0 },
    ];
    for (let k = 0; k < 3; k++) {
      samples.push({ nodeId: e, ts: start + k * 300, dt: 300, meter_p: -1, battery_p: -3, house_p: 2, sga_p: 0, solar_p: 0 });
      const house = [1.0, 0.9, 1.0][k];
      samples.push({ nodeId: f, ts: start + k * 300, dt: 300, meter_p: [-0.8, -2.1, -2][k], house_p: house, sga_p: 3, solar_p: 3 });
    }
    await telemetry.ingest(samples);
    await telemetry.ingest([e, f].map((nodeId) => ({ nodeId, ts: start + 3 * 3600, dt: 300, meter_p: 0 })));
    await db
      .insertInto('market_prices')
      .values([100, 200, 300].map((rrp, i) => ({ region: 'NSW1', interval_start: start + i * 300, rrp, source: 'AEMO' as const, published_at: now })))
      .onConflict((oc) => oc.columns(['region', 'interval_start']).doUpdateSet((eb) => ({ rrp: eb.ref('excluded.rrp'), source: 'AEMO' as const })))
      .execute();
    for (const [nodeId, kw] of [
      [e, -3],
      [f, -2],
    ])
      await db
        .updateTable('dispatch_nodes')
        .set({ intervals: JSON.stringify([{ start, end: start + duration, kw }]) })
        .where('event_id', '=', id)
        .where('node_id', '=', nodeId)
        .execute();
    const answer = (nodeId: number, status: 'ACCEPTED' | 'OPTED_OUT') =>
      db.updateTable('node_commands').set({ status, responded_at: now }).where('source', '=', `dispatch:${id}`).where('node_id', '=', nodeId).execute();
    await answer(e, 'ACCEPTED');
    await answer(f, 'OPTED_OUT');

    const m = (await h().app.inject({ method: 'GET', url: `/api/dispatches/${id}/response`, headers })).json().data.measurement;
    expect(m.baselineMethods).toEqual({ counterfactual: 1, comparableDays: 0, sameDay: 0, none: 0 });
    expect(m.intervals.map((iv: { baselineKw: number; measuredKw: number; deliveredKw: number }) => [iv.baselineKw, iv.measuredKw, iv.deliveredKw])).toEqual([
      [0.86, -1, -1.86],
      [2, -1, -3],
      [2, -1, -3],
    ]);
    expect(m.totals.deliveredKwh).toBe(-0.655);
    expect(m.baselineError.nodes).toBe(1);
    expect(m.baselineError.median).toBeCloseTo((0.8 - (2 - 1.2 / 0.95)) / 4.9, 9);
    expect(await settleDispatch(h().ctx, id, start + duration + 3600)).toBe(true);
    const s = await db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    expect(s.energy_kwh).toBeCloseTo(-0.655, 9);
    expect(s.cost).toBeCloseTo(-0.1405, 9);
    expect(s.baseline_kwh).toBeCloseTo((0.86 + 2 + 2) / 12, 9);
  });
});

describe('the wrong-way warning of the New Dispatch modal', () => {
  // One home drawing 2.27 kW with no solar, its 10 kWh battery covering it: a −1 kW discharge makes the meter import 1.27 kW more.
  const nodes = [{ id: 1, solarKw: 0, inverterKw: 5, usableKwh: 10, batteryKw: 5, socKwh: 8 }];
  const expected = { solarKw: () => 0, houseKw: () => 2.27 };
  const run = (realPowerP: number) =>
    forecast(nodes, { from: 0, dayStart: 0, end: 3600, dispatch: { start: 600, duration: 900, realPowerP, strategy: 'greedy' } }, expected);

  it('warns, with the text the modal shows, when a discharge is smaller than the batteries’ own discharge', () => {
    const d = expectedDelivery(run(-1), 600, 900, -1);
    expect(d.expectedKwh).toBeCloseTo(0.318, 3);
    expect(d.ownBatteryKw).toBeCloseTo(-2.27, 3);
    expect(d.warning).toBe(DISPATCH_MESSAGES.wrongWayDelivery(-1, -2.27, 0.3175));
    expect(d.warning).toBe(
      "Delivered energy would go the wrong way: on their own the homes' batteries would discharge about 2.27 kW for the homes' own use, more than the 1.00 kW requested, so at the meters this dispatch would add 0.32 kWh of import instead of exporting. It would be settled as a cost, not revenue.",
    );
  });

  it('does not warn when the discharge is larger than the homes’ own use', () => {
    const d = expectedDelivery(run(-4), 600, 900, -4);
    expect(d.expectedKwh).toBeCloseTo((-(4 - 2.27) * 900) / 3600, 2);
    expect(d.warning).toBeNull();
  });
});
