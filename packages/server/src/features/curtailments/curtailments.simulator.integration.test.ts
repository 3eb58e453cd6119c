import { cloudCover } from '@vpp/fleet/physics';
import { epochToLocalDate } from '@vpp/shared/time';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { nowS } from '../../db/database.ts';
import { FleetSimulator } from '../../demo/simulator.ts';
import { armCrashPoint } from '../../platform/crash-points.ts';
import { seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { toCents } from '../billing/index.ts';
import { nodeReports } from '../nodes/index.ts';
import { runCurtailmentEngine } from './curtailments.orders.service.ts';
import { curtailmentSource, setpointSource } from './curtailments.service.ts';
import { CURTAILMENT_CREDIT_TYPE, settleCurtailment } from './curtailments.settlement.service.ts';

/**
 * A small sunny fleet obeying curtailments and a default setpoint at midday in eastern Australia
 * (02:00 UTC is noon there, whatever the hour the suite runs; of the next six days, the clearest):
 * the engine runs every 5 minutes with
 * an explicit now, the simulator steps the nodes at 5 minutes between its runs, and the limits are
 * checked against the 5-minute rollups.
 *
 * T0 = T - 2 h: a default setpoint limits the VPP's solar (gross) to 10% of what it can put out,
 * ramping over 30 minutes. [T, T + 1 h): a net curtailment holds the export to 10% (the setpoint is
 * set aside for its window). [T + 1 h, T + 1.5 h): the setpoint is back. [T + 1.5 h, T + 2.5 h): a
 * gross curtailment holds the solar to 20%. Then each is settled into grid credits, and a curtailment
 * over the night (12:00 UTC, dark across Australia) holds nothing back and credits nothing.
 */
describeEachDatabase('curtailments and a default setpoint obeyed by the simulated fleet', (h) => {
  let headers: { authorization: string };
  let org: number;
  let T: number;
  let T0: number;
  let capacity: number;
  let net: { id: number; limit: number };
  let gross: { id: number; limit: number };
  let setpoint: { id: number; limit: number };
  let equipment: Map<number, { batteryKw: number; usableKwh: number; inverterKw: number }>;
  let vpp: number;
  let sim: FleetSimulator;
  let planned: Set<number>;
  type Rollup = { nodeId: number; solar: number; sga: number; meter: number; battery: number; remaining: number | null };
  const buckets = new Map<number, Rollup[]>();

  const post = (url: string, payload: object) => h().app.inject({ method: 'POST', url, headers, payload });

  /** The nodes whose limits of `source` covered the whole bucket. */
  async function holders(source: string, ts: number): Promise<Set<number>> {
    const rows = await h()
      .ctx.db.selectFrom('node_commands')
      .select('node_id')
      .where('source', '=', source)
      .where('start_ts', '<=', ts)
      .where('end_ts', '>=', ts + 300)
      .where('status', '=', 'ACCEPTED')
      .execute();
    return new Set(rows.map((r) => r.node_id));
  }

  const sum = (rows: Rollup[], key: 'solar' | 'sga' | 'meter') => rows.reduce((a, r) => a + r[key], 0);

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Sunny Feed-In');
    headers = await h().bearer((await h().user(org)).username);
    const fleet = await seedFleet(h(), { retailer: org, count: 12, seed: 23 });
    vpp = (await post('/api/powerstations', { type: 'STATIC', name: 'Sunny', nodes: fleet.ids })).json().data.id as number;
    const c = (await h().app.inject({ method: 'GET', url: `/api/constraints/curtailments?powerstation=${vpp}`, headers })).json().data;
    expect(c.deploymentsCurtailable).toBeGreaterThan(5);
    capacity = -c.constraint;
    const now = nowS();
    T = Math.floor(now / 86400) * 86400 + 2 * 3600;
    while (T - 2 * 3600 < now + 600) T += 86400;
    // Of the next days' 02:00 UTC, the one the weather forecast (the simulator's own clouds over the
    // fleet's regions) gives the clearest midday: the limits must bind whatever the date the suite runs.
    const regions = [...new Set((await h().ctx.db.selectFrom('nodes').select('region').where('id', 'in', fleet.ids).execute()).map((r) => r.region))];
    const cloud = (t: number) => {
      let total = 0;
      for (const r of regions) for (let ts = t - 2 * 3600; ts < t + 9000; ts += 900) total += cloudCover(r, ts);
      return total;
    };
    T = [0, 1, 2, 3, 4, 5].map((d) => T + d * 86400).reduce((best, t) => (cloud(t) < cloud(best) ? t : best));
    T0 = T - 2 * 3600;

    const sp = -Math.max(1, Math.round(capacity * 0.1));
    const spRes = await post('/api/curtailments/setpoint', {
      powerstation: vpp,
      rampDuration: 1800,
      inverterRealPowerP: sp,
      meterRealPowerP: -Math.ceil(capacity),
    });
    expect(spRes.statusCode, spRes.body).toBe(200);
    setpoint = { id: spRes.json().data.id, limit: -sp };
    const netKw = Math.round(capacity) / 10;
    const a = await post('/api/curtailments', { powerstation: vpp, startTime: T, duration: 3600, realPowerP: -netKw, component: 'grid' });
    expect(a.statusCode, a.body).toBe(200);
    net = { id: a.json().data.id, limit: netKw };
    const grossKw = Math.round(capacity * 2) / 10;
    const b = await post('/api/curtailments', { powerstation: vpp, startTime: T + 5400, duration: 3600, realPowerP: -grossKw, component: 'solar' });
    expect(b.statusCode, b.body).toBe(200);
    gross = { id: b.json().data.id, limit: grossKw };

    const nodes = await h().ctx.db.selectFrom('nodes').select(['id', 'battery_kw', 'battery_usable_kwh', 'inverter_kw']).where('id', 'in', fleet.ids).execute();
    equipment = new Map(nodes.map((n) => [n.id, { batteryKw: n.battery_kw, usableKwh: n.battery_usable_kwh, inverterKw: n.inverter_kw }]));

    const { db, telemetry } = h().ctx;
    await telemetry.ensurePartitions(fleet.to, T + 2 * 86400);
    sim = new FleetSimulator(db, telemetry, { intervalS: 30, reports: nodeReports(h().ctx) });
    await sim.load();
    await sim.run(fleet.to, T0 - 300, 300);
    // Every 5 minutes: the engine with the clock at the bucket, then the fleet through the bucket.
    for (let ts = T0; ts < T + 9000; ts += 300) {
      const run = await runCurtailmentEngine(h().ctx, ts);
      if (ts === T0) {
        // Both curtailments are within 24 hours of their start: their limits go out now, to take effect at their start.
        expect(run.setpointsSent).toEqual([setpoint.id]);
        expect(run.sent.sort()).toEqual([net.id, gross.id].sort());
      }
      await sim.run(ts, ts, 300);
    }
    // One reading past the last window: the fleet's telemetry covers both curtailments.
    await sim.run(T + 9000, T + 9000, 300);
    const rows = await db
      .selectFrom('tel_5m')
      .select(['node_id', 'ts', 'cov', 'solar_p', 'sga_p', 'meter_p', 'battery_p', 'remaining'])
      .where('node_id', 'in', fleet.ids)
      .where('ts', '>=', T0)
      .where('ts', '<', T + 9000)
      .execute();
    for (const r of rows) {
      const cov = Number(r.cov);
      if (!(cov > 0)) continue;
      const list = buckets.get(Number(r.ts)) ?? [];
      list.push({
        nodeId: r.node_id,
        solar: Number(r.solar_p) / cov,
        sga: Number(r.sga_p) / cov,
        meter: Number(r.meter_p) / cov,
        battery: Number(r.battery_p) / cov,
        remaining: r.remaining === null ? null : Number(r.remaining) / cov,
      });
      buckets.set(Number(r.ts), list);
    }
  });

  it('holds the summed export of a net curtailment within its limit, the batteries soaking the surplus before the solar is curtailed', async () => {
    let curtailedBuckets = 0;
    for (let ts = T; ts < T + 3600; ts += 300) {
      const held = await holders(curtailmentSource(net.id), ts);
      const rows = (buckets.get(ts) ?? []).filter((r) => held.has(r.nodeId));
      expect(rows.length, `${ts}`).toBeGreaterThan(5);
      const exported = -sum(rows, 'meter');
      expect(exported, `${ts}`).toBeLessThanOrEqual(net.limit * 1.02 + 1e-6);
      if (sum(rows, 'sga') - sum(rows, 'solar') > 0.1) curtailedBuckets++;
      for (const r of rows) {
        // House = solar + grid - battery: the energy balance holds under the limit.
        const e = equipment.get(r.nodeId) as { batteryKw: number; usableKwh: number };
        if (r.solar < r.sga - 1e-6 && e.usableKwh > 0 && e.batteryKw > 0) {
          const full = r.remaining !== null && r.remaining >= e.usableKwh - 1e-6;
          expect(r.battery >= e.batteryKw - 1e-6 || full, `node ${r.nodeId} at ${ts}: curtailed while its battery had room`).toBe(true);
        }
      }
    }
    // Noon sun: the limit binds through most of the window (batteries with room take the surplus first).
    expect(curtailedBuckets).toBeGreaterThanOrEqual(8);
  });

  it('holds the summed solar of a gross curtailment within its limit', async () => {
    let curtailedBuckets = 0;
    for (let ts = T + 5400; ts < T + 9000; ts += 300) {
      const held = await holders(curtailmentSource(gross.id), ts);
      const rows = (buckets.get(ts) ?? []).filter((r) => held.has(r.nodeId));
      expect(rows.length, `${ts}`).toBeGreaterThan(5);
      expect(sum(rows, 'solar'), `${ts}`).toBeLessThanOrEqual(gross.limit * 1.02 + 1e-6);
      if (sum(rows, 'sga') - sum(rows, 'solar') > 0.1) curtailedBuckets++;
    }
    expect(curtailedBuckets).toBeGreaterThanOrEqual(10);
  });

  it("ramps the setpoint's gross limit down over its ramp duration, then holds the VPP's solar within it", async () => {
    let aboveDuringRamp = 0;
    for (let ts = T0; ts < T0 + 3600; ts += 300) {
      const held = await holders(setpointSource(setpoint.id), ts);
      const rows = (buckets.get(ts) ?? []).filter((r) => held.has(r.nodeId));
      for (const r of rows) {
        const e = equipment.get(r.nodeId) as { inverterKw: number };
        // The share the node held at ts: the setpoint shares its limit again when its nodes change
        // (their weather decides), so the share of a later revision may differ from the ramp's.
        const command = await h()
          .ctx.db.selectFrom('node_commands')
          .select('params')
          .where('source', '=', setpointSource(setpoint.id))
          .where('node_id', '=', r.nodeId)
          .where('start_ts', '<=', ts)
          .where('end_ts', '>', ts)
          .execute();
        const share = command.map((c) => JSON.parse(c.params) as { kw: number; mode: string }).find((p) => p.mode === 'gross') as { kw: number };
        // Linear from the inverter's rating (no limit before) to the share, as the physics steps it.
        const cap = ts >= T0 + 1800 ? share.kw : e.inverterKw + (share.kw - e.inverterKw) * ((ts - T0) / 1800);
        expect(r.solar, `node ${r.nodeId} at ${ts}`).toBeLessThanOrEqual(cap + 1e-6);
        if (ts < T0 + 1800 && r.solar > share.kw + 0.05) aboveDuringRamp++;
      }
      if (ts >= T0 + 1800) expect(sum(rows, 'solar'), `${ts}`).toBeLessThanOrEqual(setpoint.limit * 1.02 + 1e-6);
    }
    expect(aboveDuringRamp).toBeGreaterThan(0);
  });

  it('sets the setpoint aside for a curtailment window and brings it back after', async () => {
    let overridden = 0;
    for (let ts = T; ts < T + 3600; ts += 300) {
      const rows = buckets.get(ts) ?? [];
      if (sum(rows, 'solar') > setpoint.limit * 1.05) overridden++;
    }
    // Under the net curtailment the VPP's solar runs above the setpoint's gross limit: the event rules.
    expect(overridden).toBeGreaterThanOrEqual(10);
    for (let ts = T + 3600; ts < T + 5400; ts += 300) {
      const held = await holders(setpointSource(setpoint.id), ts);
      const rows = (buckets.get(ts) ?? []).filter((r) => held.has(r.nodeId));
      expect(rows.length).toBeGreaterThan(5);
      expect(sum(rows, 'solar'), `${ts}`).toBeLessThanOrEqual(setpoint.limit * 1.02 + 1e-6);
    }
  });

  it('answers the response from telemetry: accepted nodes, and solar and meter power per 5 minutes', async () => {
    // The clock after both windows (only Date moves: the simulation above already ran them).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((T + 9000) * 1000);
    const hdrs = await h().bearer((await h().user(org)).username);
    const res = (await h().app.inject({ method: 'GET', url: `/api/curtailments/${net.id}/response`, headers: hdrs })).json().data;
    const detail = (await h().app.inject({ method: 'GET', url: `/api/curtailments/${net.id}`, headers: hdrs })).json().data;
    expect(detail.state).toBe('COMPLETED');
    expect(detail.currentResponse.meterPower).toBe(res.meterPower[T + 3300]);
    expect(Object.keys(res.solarPower)).toHaveLength((3600 + 7200) / 300);
    expect(res.deploymentsAccepted).toBeGreaterThan(5);
    const nodes = await h().ctx.db.selectFrom('limit_nodes').select('node_id').where('source', '=', curtailmentSource(net.id)).execute();
    const mine = new Set(nodes.map((n) => n.node_id));
    const rows = (buckets.get(T) ?? []).filter((r) => mine.has(r.nodeId));
    expect(res.meterPower[T]).toBeCloseTo(sum(rows, 'meter'), 2);
    expect(res.solarPower[T]).toBeCloseTo(sum(rows, 'solar'), 2);
    expect(res.deploymentsReporting[T]).toBe(rows.length);
    // What was expected with no curtailment, beside what was measured: the curtailment took solar away.
    const p = (await h().app.inject({ method: 'GET', url: `/api/curtailments/${net.id}/prediction`, headers: hdrs })).json().data;
    for (let ts = T; ts < T + 3600; ts += 300) expect(p.solarPower[ts], `${ts}`).toBeGreaterThan(res.solarPower[ts]);
  });

  it('records the solar each limit held back as curtailed energy in the 5-minute rollups, and none where nothing was', async () => {
    const rows = await h()
      .ctx.db.selectFrom('tel_5m')
      .select(['ts', 'sga_p', 'solar_p', 'curtailed_e'])
      .where('node_id', 'in', [...equipment.keys()])
      .where('ts', '>=', T0)
      .where('ts', '<', T + 9000)
      .execute();
    let curtailed = 0;
    let clear = 0;
    for (const r of rows) {
      // Σ (available − generated) × dt over the bucket, in kWh: the rollup's sums of the two powers (kW × s).
      const heldBack = (Number(r.sga_p) - Number(r.solar_p)) / 3600;
      if (heldBack > 1e-9) {
        curtailed++;
        expect(Number(r.curtailed_e), `${r.ts}`).toBeCloseTo(heldBack, 6);
      } else {
        clear++;
        expect(r.curtailed_e, `${r.ts}`).toBeNull();
      }
    }
    expect(curtailed).toBeGreaterThan(50);
    expect(clear).toBeGreaterThan(0);
    // The history's 5-minute energies are what the credits read (curtailedEnergy): the same total.
    const fiveMinutes = (await h().ctx.telemetry.historyRows([...equipment.keys()], ['curtailed_e'], T0 - 3600, T + 9000 + 3600)).reduce(
      (e, r) => e + (r.curtailed_e ?? 0),
      0,
    );
    expect(fiveMinutes).toBeGreaterThan(0);
    const credited = (await h().ctx.telemetry.curtailedEnergy([...equipment.keys()], T0 - 3600, T + 9000 + 3600)).reduce((e, r) => e + r.kwh, 0);
    expect(Math.abs(credited - fiveMinutes)).toBeLessThan(fiveMinutes * 1e-9);
  });

  it('settles a curtailment once into grid credits: curtailed kWh per NMI per day at the feed-in tariff, summing exactly to its credit', async () => {
    const { db, config } = h().ctx;
    const ids = [...equipment.keys()].sort((a, b) => a - b);
    // Half the customers hold a plan: its version in force on the day gives the rate; the others get the setting's.
    planned = new Set(ids.filter((_, i) => i % 2 === 0));
    const plan = (
      await db
        .insertInto('plans')
        .values({
          organisation_id: org,
          name: 'Solar Saver',
          name_key: 'solar saver',
          plan_code: 'SS1',
          code_key: 'ss1',
          description: '',
          operational_network_uid: 'x',
          tariff_type: 'FLAT_RATE',
          start_date: '2020-01-01',
          created_at: 1,
          updated_at: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const prices = (feedInTariff: number) =>
      JSON.stringify({ tariffType: 'FLAT_RATE', resetPeriod: null, rates: [], demandRates: [], dailyCharge: 1, feedInTariff, discount: 0 });
    await db
      .insertInto('plan_versions')
      .values([
        { plan_id: plan, start_date: '2020-01-01', prices: prices(0.02), created_at: 1 },
        { plan_id: plan, start_date: epochToLocalDate(T - 3 * 86400, 'Australia/Brisbane'), prices: prices(0.083), created_at: 1 },
      ])
      .execute();
    await db
      .insertInto('customer_plans')
      .values([...planned].map((nodeId) => ({ organisation_id: org, node_id: nodeId, plan_id: plan, start_date: '2020-01-01', end_date: null })))
      .execute();

    const due = T + 3600 + config.SETTLEMENT_DELAY_S;
    expect(await settleCurtailment(h().ctx, net.id, due - 1)).toBe(false);
    // The engine queued its settlement once, when it fell due during the run above; later runs queue it no more.
    expect((await runCurtailmentEngine(h().ctx, due + 300)).settling).not.toContain(net.id);
    const jobs = await db.selectFrom('jobs').select(['payload']).where('unique_key', '=', `curtailment-settle:${net.id}`).execute();
    expect(jobs.map((j) => JSON.parse(j.payload))).toEqual([{ id: net.id, at: due }]);
    expect(await settleCurtailment(h().ctx, net.id, due)).toBe(true);

    const s = await db.selectFrom('curtailment_settlements').selectAll().where('event_id', '=', net.id).executeTakeFirstOrThrow();
    const energy = await db
      .selectFrom('tel_5m')
      .select(['node_id', (eb) => eb.fn.sum<number>('curtailed_e').as('e')])
      .where('node_id', 'in', ids)
      .where('ts', '>=', T)
      .where('ts', '<', T + 3600)
      .groupBy('node_id')
      .execute();
    const byNode = new Map(energy.map((r) => [r.node_id, Number(r.e ?? 0)]));
    const held = await db.selectFrom('limit_nodes').select('node_id').where('source', '=', curtailmentSource(net.id)).execute();
    const expected = held.reduce((a, r) => a + (byNode.get(r.node_id) ?? 0), 0);
    expect(Number(s.curtailed_kwh)).toBeGreaterThan(0.5);
    // (PostgreSQL sums its 4-byte reals in 4-byte reals.)
    expect(Number(s.curtailed_kwh)).toBeCloseTo(expected, 4);

    const items = await db.selectFrom('billing_items').selectAll().where('event_id', '=', net.id).execute();
    const nmis = new Map((await db.selectFrom('nodes').select(['id', 'nmi', 'timezone']).where('id', 'in', ids).execute()).map((n) => [n.nmi, n]));
    expect(items.length).toBe([...byNode.values()].filter((e) => e > 0).length);
    expect(items.reduce((a, i) => a + Number(i.cost_cents), 0)).toBe(toCents(Number(s.credit)));
    for (const i of items) {
      const n = nmis.get(i.nmi) as { id: number; timezone: string };
      expect([i.type, i.event_kind, i.organisation_id]).toEqual([CURTAILMENT_CREDIT_TYPE, 'curtailment', org]);
      expect(i.day).toBe(epochToLocalDate(T, n.timezone));
      expect(i.amount).toBeCloseTo(byNode.get(n.id) as number, 4);
      expect(i.rate).toBeCloseTo(planned.has(n.id) ? 0.083 : config.CURTAILMENT_CREDIT_RATE, 9);
      expect(Math.abs(Number(i.cost_cents) - i.amount * i.rate * 100)).toBeLessThanOrEqual(1);
    }
    expect(Number(s.credit)).toBeCloseTo(
      items.reduce((a, i) => a + i.amount * i.rate, 0),
      6,
    );

    // A rerun, or the job run again, writes nothing.
    expect(await settleCurtailment(h().ctx, net.id, due + 600)).toBe(false);
    expect(
      Number(
        (
          await db
            .selectFrom('billing_items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('event_id', '=', net.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(items.length);
    // The gross curtailment settles the same way; a crash inside its transaction (after the settlement
    // row, before the credits) leaves neither, and the run after it writes both once.
    armCrashPoint('settlement:1:curtailment', () => {
      throw new Error('crash');
    });
    try {
      await expect(settleCurtailment(h().ctx, gross.id, T + 9000 + config.SETTLEMENT_DELAY_S)).rejects.toThrow('crash');
    } finally {
      armCrashPoint(undefined);
    }
    expect(await db.selectFrom('curtailment_settlements').select('event_id').where('event_id', '=', gross.id).execute()).toEqual([]);
    expect(await db.selectFrom('billing_items').select('id').where('event_id', '=', gross.id).execute()).toEqual([]);
    expect(await settleCurtailment(h().ctx, gross.id, T + 9000 + config.SETTLEMENT_DELAY_S)).toBe(true);
    const grossItems = await db.selectFrom('billing_items').select('cost_cents').where('event_id', '=', gross.id).execute();
    const grossSettled = await db.selectFrom('curtailment_settlements').select('credit').where('event_id', '=', gross.id).executeTakeFirstOrThrow();
    expect(grossItems.length).toBeGreaterThan(5);
    expect(grossItems.reduce((a, i) => a + Number(i.cost_cents), 0)).toBe(toCents(Number(grossSettled.credit)));
  });

  it('shows the curtailment credits through the billing API with their own type and kind, counted as events', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((T + 86400) * 1000);
    const hdrs = await h().bearer((await h().user(org)).username);
    const day = epochToLocalDate(T, 'Australia/Sydney');
    const res = await h().app.inject({ method: 'GET', url: `/billing/items?start=${day}&end=${day}&limit=200`, headers: hdrs });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.eventCount).toBe(2);
    const kinds = new Set(data.items.map((i: { eventKind: string; type: string }) => `${i.eventKind}/${i.type}`));
    expect([...kinds]).toEqual([`curtailment/${CURTAILMENT_CREDIT_TYPE}`]);
    const month = (await h().app.inject({ method: 'GET', url: '/billing/monthly', headers: hdrs })).json().data.months[0];
    expect(month.eventCount).toBe(2);
    expect(month.count).toBe(data.total);
  });

  it('credits nothing for a curtailment that held nothing back: a night window', async () => {
    vi.useRealTimers();
    // 12:00 UTC: night across Australia. Made now (its start is in the future), sent by the engine, run by the fleet.
    const N = T + 10 * 3600;
    const res = await post('/api/curtailments', { powerstation: vpp, startTime: N, duration: 1800, realPowerP: -1, component: 'grid' });
    expect(res.statusCode, res.body).toBe(200);
    const night = res.json().data.id as number;
    await sim.run(T + 9300, N - 300, 300);
    expect((await runCurtailmentEngine(h().ctx, N - 300)).sent).toEqual([night]);
    await sim.run(N, N + 1800, 300);
    const { config, db } = h().ctx;
    expect(await settleCurtailment(h().ctx, night, N + 1800 + config.SETTLEMENT_DELAY_S)).toBe(true);
    const s = await db.selectFrom('curtailment_settlements').selectAll().where('event_id', '=', night).executeTakeFirstOrThrow();
    expect(Number(s.nodes_limited)).toBeGreaterThan(5);
    expect([Number(s.curtailed_kwh), Number(s.credit), Number(s.nodes_curtailed)]).toEqual([0, 0, 0]);
    expect(await db.selectFrom('billing_items').select('id').where('event_id', '=', night).execute()).toEqual([]);
  });

  afterAll(() => {
    vi.useRealTimers();
  });
});
