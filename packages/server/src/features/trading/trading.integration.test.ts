import { BACKTEST_MESSAGES, TRADING_MESSAGES } from '@vpp/shared/trading/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { backtest } from './trading.backtest.ts';
import { plan } from './trading.optimiser.ts';
import { seedDemoTrading } from './trading.seed.ts';
import { marketHour, runBacktestJob, runTrading } from './trading.service.ts';

const base = {
  start: 0,
  stepS: 3600,
  efficiency: 1,
  degradationPerMWh: 0,
  capacityKwh: 10,
  storedKwh: 5,
  floorKwh: 0,
  dayOf: () => 0,
};

describe('the trading optimiser', () => {
  // Hour-long intervals, a lossless 10 kWh store holding 5, 100 kW either way: worked by hand.
  it('charges at the low prices and discharges at the high ones, within the store', async () => {
    const p = await plan({
      ...base,
      prices: [10, 100, 10, 100],
      maxChargeKw: [100, 100, 100, 100],
      maxDischargeKw: [100, 100, 100, 100],
      dischargeBudgetKwh: [100],
    });
    expect(p.intervals.map((i) => i.kw)).toEqual([5, -10, 10, -10]);
    // (−5 × 10 + 10 × 100 − 10 × 10 + 10 × 100) / 1000
    expect(p.expectedRevenue).toBeCloseTo(1.85, 9);
    expect(p.intervals.map((i) => i.storedKwh)).toEqual([10, 0, 10, 0]);
  });

  it('never leaves the floor, keeps to the cycle budget and to the hours it may use', async () => {
    const p = await plan({
      ...base,
      floorKwh: 2,
      prices: [10, 100, 10, 100],
      maxChargeKw: [100, 100, 0, 0],
      maxDischargeKw: [100, 100, 100, 0],
      dischargeBudgetKwh: [6],
    });
    // The budget of 6 is drawn at the first high price, down to the floor: so only 3 is bought first.
    // The third interval may not charge and the last may not discharge, so nothing more is worth buying.
    expect(p.intervals.map((i) => i.kw)).toEqual([3, -6, 0, 0]);
    expect(Math.min(...p.intervals.map((i) => i.storedKwh))).toBeGreaterThanOrEqual(2);
  });

  it('keeps an interval that another event holds at that event’s power, and counts losses and wear', async () => {
    const p = await plan({
      ...base,
      efficiency: 0.9,
      degradationPerMWh: 20,
      prices: [100, 10, 100],
      maxChargeKw: [100, 100, 100],
      maxDischargeKw: [100, 100, 100],
      fixedKw: [null, 2, null],
      dischargeBudgetKwh: [100],
    });
    // 5 kWh in store gives 4.5 at the meter; the held 2 kW charge stores 1.8, which gives 1.62 back.
    expect(p.intervals.map((i) => Math.round(i.kw * 1000) / 1000)).toEqual([-4.5, 2, -1.62]);
    // 4.5 × (100 − 20) − 2 × (10 + 20) + 1.62 × (100 − 20), $/1000
    expect(p.expectedRevenue).toBeCloseTo(0.4296, 6);
  });

  it('plans a day of 5-minute intervals', async () => {
    const n = 288;
    const prices = Array.from({ length: n }, (_, t) => 50 + 100 * Math.sin((2 * Math.PI * t) / n));
    const p = await plan({
      ...base,
      stepS: 300,
      efficiency: 0.95,
      degradationPerMWh: 20,
      capacityKwh: 135_000,
      storedKwh: 60_000,
      floorKwh: 13_500,
      prices,
      maxChargeKw: Array(n).fill(50_000),
      maxDischargeKw: Array(n).fill(50_000),
      dischargeBudgetKwh: [135_000],
    });
    expect(p.intervals).toHaveLength(n);
    expect(p.expectedRevenue).toBeGreaterThan(0);
    expect(Math.min(...p.intervals.map((i) => i.storedKwh))).toBeGreaterThanOrEqual(13_500 - 1e-6);
  });
});

describe('the backtest', () => {
  // Two market days of a duck curve (cheap at midday, dear in the evening) with one spike, forecast
  // with a known error: every strategy runs the same store, and none may leave its floor or its cycles.
  const start = Date.UTC(2026, 9, 1) / 1000 - 10 * 3600;
  const actual = Array.from({ length: 2 * 288 }, (_, i) => {
    const h = (i % 288) / 12;
    return 80 + 60 * Math.cos(((h - 19) / 24) * 2 * Math.PI) - (h > 10 && h < 15 ? 70 : 0) + (i === 400 ? 4000 : 0);
  });
  const store = { capacityKwh: 1000, powerKw: 500, floorKwh: 200, storedKwh: 500, efficiency: 0.95, degradationPerMWh: 20, maxCyclesPerDay: 1 };

  it('keeps every strategy within the store and its cycle limit, and the optimiser earns more than both naive rules', async () => {
    const r = await backtest({
      start,
      actual,
      store,
      replanS: 3 * 3600,
      // 10 % too high in the first half of each hour, 10 % too low in the second; the spike is not foreseen.
      forecast: async (_asOf, from, count) =>
        Array.from({ length: count }, (_, k) => {
          const i = Math.round((from - start) / 300) + k;
          const p = actual[i % actual.length];
          return (p > 1000 ? 150 : p) * (i % 12 < 6 ? 1.1 : 0.9);
        }),
    });
    expect(r.plans).toBe(16);
    for (const s of [r.optimiser, r.threshold, r.evening]) {
      expect(s.minStoredKwh).toBeGreaterThanOrEqual(200 - 1e-6);
      expect(s.maxDayCycles).toBeLessThanOrEqual(1 + 1e-9);
    }
    expect(r.optimiser.revenue).toBeGreaterThan(r.threshold.revenue);
    expect(r.optimiser.revenue).toBeGreaterThan(r.evening.revenue);
    expect(r.gainOverBestNaive).toBeGreaterThan(0);
  });
});

describeEachDatabase('trading: policy, plan and automatic dispatches', (h) => {
  let headers: { authorization: string };
  let viewer: { authorization: string };
  let network: { authorization: string };
  let other: { authorization: string };
  let vpp: number;
  let nodeIds: number[] = [];
  const now = nowS();
  const put = (id: number, payload: object, hdrs = headers) =>
    h().app.inject({ method: 'PUT', url: `/api/powerstations/${id}/trading`, headers: hdrs, payload });
  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const automatic = {
    mode: 'AUTOMATIC',
    fromHour: 0,
    toHour: 24,
    maxPowerKw: null,
    minSocPct: 20,
    maxCyclesPerDay: 1,
    degradationCostPerMWh: 20,
    gridCharging: true,
  };

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Trader');
    const dnsp = await h().org('NETWORK', 'Poles');
    headers = await h().bearer((await h().user(org)).username);
    viewer = await h().bearer((await h().user(org, { permissions: ['fleet.dispatches.view', 'fleet.powerstations.view'] })).username);
    network = await h().bearer((await h().user(dnsp)).username);
    other = await h().bearer((await h().user(await h().org('RETAILER', 'Elsewhere'))).username);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const n = await node(h(), [org, dnsp]);
      await h().ctx.db.updateTable('nodes').set({ battery_usable_kwh: 10, battery_kwh: 10, battery_kw: 5 }).where('id', '=', n.id).execute();
      await h().ctx.telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 6, soc: null }]);
      ids.push(n.id);
    }
    const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Traded', nodes: ids } });
    expect(res.statusCode, res.body).toBe(200);
    vpp = res.json().data.id;
    nodeIds = ids;
  });

  it('starts off, with no plan', async () => {
    const res = await get(`/api/powerstations/${vpp}/trading`, viewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      policy: { mode: 'OFF', minSocPct: 20, maxCyclesPerDay: 1 },
      plan: [],
      plannedAt: null,
      suspended: null,
      updatedBy: null,
    });
  });

  it('refuses limits out of range with the message that says which, and changes nothing', async () => {
    const cases: [object, string][] = [
      [{ minSocPct: 120 }, TRADING_MESSAGES.minSoc],
      [{ maxCyclesPerDay: 0 }, TRADING_MESSAGES.cycles],
      [{ degradationCostPerMWh: -1 }, TRADING_MESSAGES.degradation],
      [{ fromHour: 18, toHour: 6 }, TRADING_MESSAGES.hours],
      [{ maxPowerKw: 0 }, TRADING_MESSAGES.maxPower],
    ];
    for (const [over, message] of cases) {
      const res = await put(vpp, { ...automatic, ...over });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect((await get(`/api/powerstations/${vpp}/trading`)).json().data.policy.mode).toBe('OFF');
  });

  it('is set only by a dispatcher who sees market data, of their own organisation', async () => {
    expect((await put(vpp, automatic, viewer)).statusCode).toBe(403);
    // The network shares the homes, not the retailer's VPP.
    expect((await put(vpp, automatic, network)).statusCode).toBe(404);
    expect((await put(vpp, automatic, other)).statusCode).toBe(404);
    expect((await get(`/api/powerstations/${vpp}/trading`, other)).statusCode).toBe(404);
  });

  it('plans the next 24 hours within the store when automatic, and turns the next block into an "Automatic" dispatch', async () => {
    // A P5MIN run issued now forecasts a spike over the next two intervals: the plan discharges into it, whichever
    // of the two comes next when the plan is made (the clock may pass a 5-minute mark meanwhile).
    const at = nowS();
    const next = at - (at % 300) + 300;
    await h()
      .ctx.db.insertInto('market_forecasts')
      .values(
        [next, next + 300].map((t) => ({
          region: 'NSW1',
          source: 'P5MIN' as const,
          issued_at: at - (at % 300),
          interval_start: t,
          interval_end: t + 300,
          rrp: 12_000,
        })),
      )
      .execute();
    const res = await put(vpp, automatic);
    expect(res.statusCode, res.body).toBe(200);
    const state = res.json().data;
    expect(state.policy.mode).toBe('AUTOMATIC');
    expect(state.plan).toHaveLength(288);
    expect(state.plannedAt).toBeGreaterThanOrEqual(at);
    expect(state.suspended).toBeNull();
    // 3 × 10 kWh; the floor is 20 % of it (above the customers' 10 % reserve); 3 × 5 kW either way.
    for (const i of state.plan) {
      expect(i.storedKwh).toBeGreaterThanOrEqual(6 - 1e-6);
      expect(i.storedKwh).toBeLessThanOrEqual(30 + 1e-6);
      expect(Math.abs(i.kw)).toBeLessThanOrEqual(15 + 1e-6);
    }
    // One cycle a day: at most the 30 kWh of the store drawn (at the battery) in a market day.
    const drawn = state.plan.filter((i: { kw: number }) => i.kw < 0).reduce((s: number, i: { kw: number }) => s - i.kw / 12 / 0.95, 0);
    expect(drawn).toBeLessThanOrEqual(2 * 30 + 1e-3);
    expect([next, next + 300]).toContain(state.plan[0].start);
    expect(state.plan[0]).toMatchObject({ kw: -15, price: 12_000 });

    await h().ctx.db.updateTable('trading_policies').set({ planned_at: null }).where('powerstation_id', '=', vpp).execute();
    const run = nowS();
    await runTrading(h().ctx, run);
    const list = (await get('/api/dispatches?limit=50')).json().data.dispatches as {
      reason: string | null;
      triggered: boolean;
      request: { startTime: number; realPowerP: number };
    }[];
    const made = list.filter((d) => d.reason === 'Automatic');
    expect(made).toHaveLength(1);
    expect(made[0].triggered).toBe(true);
    expect(made[0].request.startTime).toBe(run - (run % 300) + 300);
    expect(made[0].request.realPowerP).toBeLessThan(0);
    // The next run within the same 5 minutes leaves it be: one dispatch per block.
    await runTrading(h().ctx, run);
    expect((await get('/api/dispatches?limit=50')).json().data.dispatches.filter((d: { reason: string | null }) => d.reason === 'Automatic')).toHaveLength(1);
  });

  it('withdraws its upcoming dispatches when switched off', async () => {
    const res = await put(vpp, { ...automatic, mode: 'OFF' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.plan).toEqual([]);
    const list = (await get('/api/dispatches?limit=50')).json().data.dispatches as { reason: string | null; cancelledAt: number | null }[];
    const automaticOnes = list.filter((x) => x.reason === 'Automatic');
    expect(automaticOnes).toHaveLength(1);
    for (const d of automaticOnes) expect(d.cancelledAt).not.toBeNull();
  });

  it("plans around other VPPs' events on its homes: its organisation's own, and another organisation's with precedence", async () => {
    const at = nowS();
    const next = at - (at % 300) + 300;
    const vppOf = async (hdrs: { authorization: string }, name: string, nodes: number[]) => {
      const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: hdrs, payload: { type: 'STATIC', name, nodes } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const dispatch = async (hdrs: { authorization: string }, powerstation: number, startTime: number) => {
      const res = await h().app.inject({
        method: 'POST',
        url: '/dispatch',
        headers: hdrs,
        payload: { powerstation, startTime, duration: 3600, realPowerP: -1, customerMessage: null, messageTitle: null, strategy: null },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // The retailer's other VPP holds one of the homes in the second hour (its own dispatch would be refused there);
    // the network's dispatch holds one in the fourth (a network's event has precedence over a retailer's).
    await dispatch(headers, await vppOf(headers, 'Sibling', [nodeIds[0]]), next + 3600);
    await dispatch(network, await vppOf(network, 'Feeder', [nodeIds[1]]), next + 3 * 3600);
    // A forecast that makes every hour worth trading: dear and cheap by turns, every 5 minutes.
    const intervals = Array.from({ length: 300 }, (_, k) => next + k * 300);
    await h().ctx.db.deleteFrom('market_forecasts').where('region', '=', 'NSW1').execute();
    await h()
      .ctx.db.insertInto('market_forecasts')
      .values(
        intervals.map((t, k) => ({
          region: 'NSW1',
          source: 'P5MIN' as const,
          issued_at: at - (at % 300),
          interval_start: t,
          interval_end: t + 300,
          rrp: k % 2 ? 2000 : -500,
        })),
      )
      .execute();
    const res = await put(vpp, { ...automatic, maxCyclesPerDay: 5 });
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json().data.plan as { start: number; kw: number }[];
    const within = (from: number) => plan.filter((i) => i.start >= from && i.start < from + 3600);
    expect(within(next + 3600).every((i) => i.kw === 0)).toBe(true);
    const network4th = within(next + 3 * 3600);
    expect(network4th.length).toBe(12);
    // Two of the three 5 kW batteries are left: at most 10 kW either way, and used.
    expect(Math.max(...network4th.map((i) => Math.abs(i.kw)))).toBeLessThanOrEqual(10 + 1e-6);
    expect(Math.max(...within(next + 2 * 3600).map((i) => Math.abs(i.kw)))).toBeGreaterThan(10);
    await put(vpp, { ...automatic, mode: 'OFF' });
  });

  it('without grid charging, still charges, but only from the solar surplus its forecast expects: by day', async () => {
    const res = await put(vpp, { ...automatic, gridCharging: false });
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json().data.plan as { start: number; kw: number }[];
    expect(plan).toHaveLength(288);
    const charging = plan.filter((i) => i.kw > 0);
    expect(charging.length).toBeGreaterThan(0);
    // NSW homes: no solar from 21:00 to 04:00 market time (UTC+10) in any season, so no charge then.
    expect(charging.filter((i) => marketHour(i.start) < 4 || marketHour(i.start) >= 21)).toEqual([]);
    await put(vpp, { ...automatic, mode: 'OFF' });
  });

  it('backtests the policy over ended market days in the background, and refuses a period it cannot', async () => {
    const day = (back: number) => new Date((nowS() + 10 * 3600 - back * 86_400) * 1000).toISOString().slice(0, 10);
    const post = (payload: object, hdrs = headers) =>
      h().app.inject({ method: 'POST', url: `/api/powerstations/${vpp}/trading/backtests`, headers: hdrs, payload });
    const refusals: [object, string][] = [
      [{ firstDay: day(2), lastDay: day(3) }, BACKTEST_MESSAGES.order],
      [{ firstDay: day(40), lastDay: day(2) }, BACKTEST_MESSAGES.tooLong],
      [{ firstDay: day(1), lastDay: day(0) }, BACKTEST_MESSAGES.notEnded],
      [{ firstDay: '2026-02-30', lastDay: day(1) }, BACKTEST_MESSAGES.day],
    ];
    for (const [payload, message] of refusals) {
      const r = await post(payload);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().message).toContain(message);
    }
    expect((await get(`/api/powerstations/${vpp}/trading/backtests`)).json().data).toEqual([]);
    expect((await post({ firstDay: day(1), lastDay: day(1) }, other)).statusCode).toBe(404);
    expect((await post({ firstDay: day(1), lastDay: day(1) }, network)).statusCode).toBe(404);

    const res = await post({ firstDay: day(1), lastDay: day(1) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      firstDay: day(1),
      lastDay: day(1),
      status: 'RUNNING',
      progress: 0,
      result: null,
      requestedBy: expect.stringMatching(/^Test user\d+$/),
    });
    const again = await post({ firstDay: day(1), lastDay: day(1) });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(BACKTEST_MESSAGES.running);

    await runBacktestJob(h().ctx, res.json().data.id);
    const [done] = (await get(`/api/powerstations/${vpp}/trading/backtests`, viewer)).json().data;
    expect(done.status, done.error).toBe('DONE');
    expect(done.progress).toBe(1);
    expect(done.result).toMatchObject({ region: 'NSW1', capacityKwh: 30, powerKw: 15, replanMinutes: 30, plans: 48 });
    for (const r of [done.result.optimiser, done.result.threshold, done.result.evening]) {
      expect(r.minStoredKwh).toBeGreaterThanOrEqual(done.result.floorKwh - 1e-6);
      expect(r.maxDayCycles).toBeLessThanOrEqual(1 + 1e-9);
    }
    expect(done.result.optimiser.revenue).toBeGreaterThan(0);
    expect((await get(`/api/powerstations/${vpp}/trading/backtests`, other)).statusCode).toBe(404);
  });

  it("puts the demo's Queensland VPP on an automatic policy in the demo retailer's name, once however often it runs", async () => {
    const org = await h().org('RETAILER', 'Demo retailer');
    const user = await h().user(org, { username: 'retailer' });
    const hdrs = await h().bearer('retailer');
    const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: hdrs, payload: { type: 'STATIC', name: 'Queensland', nodes: [] } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    await seedDemoTrading(h().ctx, { orgs: { retailer: org } });
    await seedDemoTrading(h().ctx, { orgs: { retailer: org } });
    const rows = await h().ctx.db.selectFrom('trading_policies').selectAll().where('powerstation_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mode: 'AUTOMATIC', updated_by: user.id, organisation_id: org });
    const state = (await get(`/api/powerstations/${id}/trading`, hdrs)).json().data;
    expect(state.policy.mode).toBe('AUTOMATIC');
    expect(state.updatedBy).toBe('Test retailer');
  });
});
