import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { armCrashPoint } from '../../platform/crash-points.ts';
import { feedInPlan, node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { withinOneDay } from '../../test/local-day.ts';
import { runDispatchEngine, settleDispatch } from '../dispatches/index.ts';
import { allocateCents, toCents } from './billing.credits.service.ts';

describe('largest-remainder rounding', () => {
  it('rounds to whole cents that sum exactly to the target, the missing cents to the largest remainders', () => {
    expect(allocateCents([10.45, 20.4, 30.15], 61)).toEqual([11, 20, 30]);
    expect(allocateCents([33.3333, 33.3333, 33.3334], 100)).toEqual([33, 33, 34]);
    expect(allocateCents([-10.7, -20.6], -31)).toEqual([-11, -20]);
    expect(allocateCents([], 0)).toEqual([]);
    expect(() => allocateCents([1.2], 5)).toThrow();
    expect([toCents(1.005 + 1e-12), toCents(-1.0833333), toCents(-0.001)]).toEqual([101, -108, 0]);
  });
});

// The settlement of dispatches.settlement.test.ts, from known prices and rollups: nodes A and B
// complete and priced (NSW1), C outside the NEM (no price), D and E incomplete. Settled cost
// −1.083333 AUD: the customers are credited 108 cents between A (46.67) and B (61.67).
describeEachDatabase('grid credits of a settled dispatch', (h) => {
  let headers: { authorization: string };
  let org: number;
  let vpp: number;
  let ids: number[];
  const now = nowS();
  // The file's dispatches run from 5 minutes before `start` to 6 hours after it. A node's grid credits are
  // one line per local day, so the whole span lies in one day of the nodes (Sydney).
  const start = withinOneDay(now - (now % 300) + 300, 300 + 6 * 3600) + 300;
  const duration = 900;
  const end = start + duration;

  const create = async () => {
    const res = await h().app.inject({
      method: 'POST',
      url: '/dispatch',
      headers,
      payload: { powerstation: vpp, startTime: start, duration, realPowerP: -10 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${id}`).execute();
    // The next dispatch on the same nodes must not overlap: this one is over (cancelled at its end).
    return id;
  };
  const items = (id: number) => h().ctx.db.selectFrom('billing_items').selectAll().where('event_id', '=', id).orderBy('nmi').orderBy('day').execute();

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Sunrise');
    headers = await h().bearer((await h().user(org, { permissions: PERMISSIONS.map((p) => p.name) })).username);
    const { db, telemetry } = h().ctx;
    await telemetry.ensurePartitions(now - 86400, now + 86400);
    ids = [];
    for (const region of ['NSW1', 'NSW1', 'WEM', 'NSW1', 'NSW1']) {
      const n = await node(h(), [org], { region });
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 13, soc: null }]);
      ids.push(n.id);
    }
    vpp = (await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Fleet', nodes: ids } })).json().data.id;
    const power: (number | null)[][] = [
      [0.5, -1.5, -1.5, -1.5],
      [-0.3, -2.3, -2.3, 0.7],
      [0, -2, -2, -2],
      [0, -2, null, -2],
      [0, -2, -2, -2],
    ];
    const samples = power.flatMap((ps, k) =>
      ps.flatMap((p, i) =>
        p === null ? [] : [{ nodeId: ids[k], ts: start - 300 + i * 300, dt: k === 4 && i === 2 ? 150 : 300, meter_p: p, battery_p: p, remaining: 13 }],
      ),
    );
    await telemetry.ingest(samples);
    // A reading of every node after the windows the tests settle: the fleet's telemetry covers them.
    await telemetry.ingest(ids.map((nodeId) => ({ nodeId, ts: start + 6 * 3600, dt: 300, meter_p: 0, battery_p: 0, remaining: 13 })));
    await db
      .insertInto('market_prices')
      .values([1000, 2400, -600].map((rrp, i) => ({ region: 'NSW1', interval_start: start + i * 300, rrp, source: 'AEMO' as const, published_at: now })))
      .execute();
  });

  afterEach(() => armCrashPoint(undefined));

  it('writes one credit per NMI per local day, summing exactly to the settled value, once; none if the settlement crashes', async () => {
    const id = await create();
    // The settlement crashes after its rows, before the grid credits: the transaction leaves nothing.
    armCrashPoint('settlement:1', () => {
      throw new Error('killed');
    });
    await expect(settleDispatch(h().ctx, id, end + 3600)).rejects.toThrow('killed');
    armCrashPoint(undefined);
    expect(await h().ctx.db.selectFrom('dispatch_settlements').select('event_id').where('event_id', '=', id).execute()).toEqual([]);
    expect(await items(id)).toEqual([]);

    expect(await settleDispatch(h().ctx, id, end + 3600)).toBe(true);
    const settlement = await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    const written = await items(id);
    // A and B only (C has no price, D and E are incomplete); one per local day the event touched.
    const nmis = await h().ctx.db.selectFrom('nodes').select(['id', 'nmi']).where('id', 'in', ids).execute();
    const nmiOf = (i: number) => nmis.find((n) => n.id === ids[i])?.nmi;
    expect(new Set(written.map((r) => r.nmi))).toEqual(new Set([nmiOf(0), nmiOf(1)]));
    expect(written.every((r) => r.type === 'Spot Price' && r.event_kind === 'dispatch' && r.organisation_id === org)).toBe(true);
    // Exactly the settled value, credited to the customers (the settlement's cost is what the VPP paid: negative, an earning).
    const cents = written.reduce((a, r) => a + Number(r.cost_cents), 0);
    expect(cents).toBe(toCents(-settlement.cost));
    expect(cents).toBe(108);
    // A gave 0.5 kWh for 46.67 ¢, B gave 0.25 kWh net for 61.67 ¢.
    const byNmi = (nmi: string | undefined) => written.filter((r) => r.nmi === nmi);
    const sum = (rows: typeof written, f: (r: (typeof written)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
    expect(sum(byNmi(nmiOf(0)), (r) => r.amount)).toBeCloseTo(0.5, 9);
    expect(sum(byNmi(nmiOf(1)), (r) => r.amount)).toBeCloseTo(1 / 6 + 1 / 6 - 1 / 12, 9);
    expect(Math.abs(sum(byNmi(nmiOf(0)), (r) => Number(r.cost_cents)) - 46.67)).toBeLessThan(1);
    for (const r of written) if (Math.abs(r.amount) > 1e-9) expect(r.rate * r.amount * 100).toBeCloseTo(Number(r.cost_cents), -0.5);

    // A rerun (another worker, a job after a crash) writes nothing.
    expect(await settleDispatch(h().ctx, id, end + 7200)).toBe(false);
    expect(await items(id)).toEqual(written);
    const [{ n }] = await h().ctx.db.selectFrom('billing_items').select(sql<number>`count(*)`.as('n')).where('event_id', '=', id).execute();
    expect(Number(n)).toBe(written.length);
  });

  it('settles a RERT dispatch under its contract, never at spot, and credits the customers the contract’s share, labelled RERT', async () => {
    // Events 1.5 hours apart or more: a node's flat baseline (no comparable days here) is its meter in the hour before the start.
    const start2 = start + 1.5 * 3600;
    const instruction = {
      id: 'AEMO-RERT-0042',
      noticeCategory: 'SHORT_NOTICE',
      lorCondition: 'LOR2',
      preActivationTime: start2 - 7200,
      activationTime: start2 - 3600,
    };
    const contract = {
      reference: 'RERT-SN-2026-07',
      contractedMw: 0.02,
      availabilityRate: 10,
      preActivationRate: 100,
      activationRate: 500,
      usageRate: 1000,
      customerShare: 0.4,
    };
    const bad = await h().app.inject({
      method: 'POST',
      url: '/api/rert-dispatches',
      headers,
      payload: { powerstation: vpp, startTime: start2, duration, realPowerP: -10, instruction: { ...instruction, lorCondition: 'LOR9' }, contract },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe('instruction.lorCondition must be one of LOR1, LOR2, LOR3.');
    const res = await h().app.inject({
      method: 'POST',
      url: '/api/rert-dispatches',
      headers,
      payload: { powerstation: vpp, startTime: start2, duration, realPowerP: -10, instruction, contract },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${id}`).execute();
    await h().ctx.telemetry.ingest(
      [0, 1].flatMap((k) => [0, -2, -2, -2].map((p, i) => ({ nodeId: ids[k], ts: start2 - 300 + i * 300, dt: 300, meter_p: p, battery_p: p, remaining: 13 }))),
    );
    // Spot prices the RERT is not paid at.
    await h()
      .ctx.db.insertInto('market_prices')
      .values([100, 200, 300].map((rrp, i) => ({ region: 'NSW1', interval_start: start2 + i * 300, rrp, source: 'AEMO' as const, published_at: now })))
      // The model may have written these intervals already: imported prices replace it.
      .onConflict((oc) => oc.columns(['region', 'interval_start']).doUpdateSet((eb) => ({ rrp: eb.ref('excluded.rrp'), source: 'AEMO' as const })))
      .execute();
    expect(await settleDispatch(h().ctx, id, start2 + duration + 3600)).toBe(true);
    const settlement = await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    // By hand: availability 10 × 0.02 MW × 2.25 h = 0.45; pre-activation 100 × 0.02 × 1 h = 2.00;
    // activation 500 × 0.02 × 1.25 h = 12.50; usage 1000 $/MWh × 0.001 MWh (2 nodes × 0.5 kWh) = 1.00.
    expect(settlement.rert_availability).toBeCloseTo(0.45, 9);
    expect(settlement.rert_pre_activation).toBeCloseTo(2, 9);
    expect(settlement.rert_activation).toBeCloseTo(12.5, 9);
    expect(settlement.rert_usage).toBeCloseTo(1, 9);
    expect(settlement.cost).toBeCloseTo(-15.95, 9);
    // The customers: 0.4 × 15.95 = 6.38 AUD, 3.19 each (each discharged half the energy); not the spot value (0.20).
    const written = await items(id);
    expect(written.every((r) => r.type === 'RERT' && r.event_kind === 'rert')).toBe(true);
    expect(written.map((r) => Number(r.cost_cents))).toEqual([319, 319]);
    const detail = (await h().app.inject({ method: 'GET', url: `/api/rert-dispatches/${id}`, headers })).json().data;
    expect(detail.rert).toEqual({
      instruction,
      contract,
      payments: { availability: 0.45, preActivation: 2, activation: 12.5, usage: 1, total: 15.95, customers: 6.38 },
    });
  });
  /** A dispatch of the VPP from `at`, its orders sent and accepted, nodes A and B's battery power (kW) from the bucket before it, and NSW1's prices. */
  const dispatchWith = async (at: number, realPowerP: number, power: number[], prices: number[]) => {
    const res = await h().app.inject({ method: 'POST', url: '/dispatch', headers, payload: { powerstation: vpp, startTime: at, duration, realPowerP } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runDispatchEngine(h().ctx, now)).sent).toContain(id);
    await h().ctx.db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', `dispatch:${id}`).execute();
    await h().ctx.telemetry.ingest(
      [0, 1].flatMap((k) => power.map((p, i) => ({ nodeId: ids[k], ts: at - 300 + i * 300, dt: 300, meter_p: p, battery_p: p, remaining: 13 }))),
    );
    await h()
      .ctx.db.insertInto('market_prices')
      .values(prices.map((rrp, i) => ({ region: 'NSW1', interval_start: at + i * 300, rrp, source: 'AEMO' as const, published_at: now })))
      .onConflict((oc) => oc.columns(['region', 'interval_start']).doUpdateSet((eb) => ({ rrp: eb.ref('excluded.rrp'), source: 'AEMO' as const })))
      .execute();
    return id;
  };
  const centsOf = async (id: number, k: number) => {
    const nmi = (await h().ctx.db.selectFrom('nodes').select('nmi').where('id', '=', ids[k]).executeTakeFirstOrThrow()).nmi;
    const rows = (await items(id)).filter((r) => r.nmi === nmi);
    return { cents: rows.reduce((a, r) => a + Number(r.cost_cents), 0), kwh: rows.reduce((a, r) => a + r.amount, 0) };
  };

  it('credits a discharge at the spot price beyond the feed-in tariff the bill already pays for it', async () => {
    // A holds a plan of this retailer with a feed-in tariff of 0.08 $/kWh; B none (its bill is not ours: the whole spot value).
    const { db } = h().ctx;
    await feedInPlan(h(), org, ids[0]);
    // Each of A and B: −3 kW against a baseline of 0 for three intervals, 0.25 kWh each, at 300, 60 and 1000 $/MWh.
    const at = start + 3.25 * 3600;
    const id = await dispatchWith(at, -10, [0, -3, -3, -3], [300, 60, 1000]);
    expect(await settleDispatch(h().ctx, id, at + duration + 3600)).toBe(true);
    const settlement = await db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    // The VPP earned 2 × 0.25 × (0.300 + 0.060 + 1.000) = 0.68 AUD.
    expect(settlement.cost).toBeCloseTo(-0.68, 9);
    // A: 0.34 − 0.75 kWh × 0.08 = 0.28 AUD; B: 0.34 AUD.
    expect(await centsOf(id, 0)).toEqual({ cents: 28, kwh: expect.closeTo(0.75, 9) });
    expect(await centsOf(id, 1)).toEqual({ cents: 34, kwh: expect.closeTo(0.75, 9) });
    // Both sides of the same kWh on the line (and in the billing CSV): A's spot value 0.34 less the
    // feed-in its bill pays, 0.75 × 0.08 = 0.06; B's bill is not ours: nothing to take off.
    const sides = await db.selectFrom('billing_items').select(['nmi', 'spot_value', 'feed_in_deduction']).where('event_id', '=', id).orderBy('nmi').execute();
    const nmis = await db.selectFrom('nodes').select(['id', 'nmi']).where('id', 'in', [ids[0], ids[1]]).orderBy('nmi').execute();
    expect(sides.map((r) => [nmis.find((n) => n.nmi === r.nmi)?.id, r.spot_value, r.feed_in_deduction])).toEqual([
      [ids[0], expect.closeTo(0.34, 9), expect.closeTo(0.06, 9)],
      [ids[1], expect.closeTo(0.34, 9), 0],
    ]);
  });

  it('never debits a customer for a charge the operator ordered, and stops measuring at the cancel (its bucket pro rata)', async () => {
    // Each of A and B: +2 kW against 0 from the start; cancelled 2.5 minutes into the second interval; the third never counts.
    const at = start + 4.5 * 3600;
    const id = await dispatchWith(at, 10, [0, 2, 2, 2], [100, 200, 300]);
    await h()
      .ctx.db.updateTable('events')
      .set({ cancelled_at: at + 450 })
      .where('id', '=', id)
      .execute();
    expect(await settleDispatch(h().ctx, id, at + 450 + 3600)).toBe(true);
    const settlement = await h().ctx.db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    // Each: 2 kW × 300 s = 1/6 kWh at 100 $/MWh, then 2 kW × 150 s = 1/12 kWh at 200 $/MWh: 1/60 + 1/60 AUD.
    expect(Number(settlement.period_end)).toBe(at + 450);
    expect(settlement.charged_kwh).toBeCloseTo(2 * 0.25, 9);
    expect(settlement.cost).toBeCloseTo(2 * (1 / 60 + 1 / 60), 9);
    // The VPP paid for the energy; the customers are credited nothing and debited nothing (it pays their import on the bill, and the energy is theirs, stored).
    expect(await centsOf(id, 0)).toEqual({ cents: 0, kwh: expect.closeTo(-0.25, 9) });
    expect(await centsOf(id, 1)).toEqual({ cents: 0, kwh: expect.closeTo(-0.25, 9) });
  });
});
