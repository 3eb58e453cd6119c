// `npm run bench:trading -- --nodes 10000 --vpps 20 --days 30`: automatic trading (issue 35).
//  1. The 24-hour, 5-minute plan of one VPP of all `nodes` nodes (makePlan: its store from the
//     batteries' latest readings, the forecast, the standing events, the solve, the plan written),
//     with grid charging and without it (the solar surplus from the console's own forecast).
//  2. One run of the trading job with every automatic VPP due at once (that VPP and `vpps` more of
//     500 nodes each, sharing its homes): each re-planned and its next block dispatched; the target is
//     the 5-minute interval.
//  3. A month of prices (the `days` market days before today, the VPP's region): the backtest of the
//     default policy on the big VPP's store, the optimiser on the price forecasts as they were issued
//     (latestForecast: AEMO's imported runs where there are, the market model's forecast with its
//     error otherwise), against the two naive rules with the same cycle limit; re-planning every 5
//     minutes (as the job does) and every 30; and, to tell the forecast's error from the rest, the
//     optimiser on a perfect forecast (the actual prices).
// Prints the figures and adds them to bench/results.json. PostgreSQL: set BENCH_DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TRADING_POLICY, TRADING_STEP_S } from '@vpp/shared/trading/schemas';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { FleetSimulator } from '../packages/server/src/demo/simulator.ts';
import { publishWeather, WEATHER_AHEAD_S } from '../packages/server/src/demo/weather.ts';
import { actualPrices, latestForecast, vppRegion } from '../packages/server/src/features/market/index.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import {
  type BacktestResult,
  backtest,
  makePlan,
  runTrading,
  type StrategyResult,
  savePolicy,
  vppStore,
} from '../packages/server/src/features/trading/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY } from '../packages/server/src/forecast/index.ts';
import { openBench } from './setup.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '10000' },
    vpps: { type: 'string', default: '20' },
    days: { type: 'string', default: '30' },
    'skip-month': { type: 'boolean', default: false },
  },
});
const NODES = Number(values.nodes);
const VPPS = Number(values.vpps);
const DAYS = Number(values.days);
const log = (s: string) => process.stderr.write(`${s}\n`);

const { handle, ctx, org, close } = await openBench('trading');
const db = handle.db;
const now = Math.floor(Date.now() / 1000);
const to = now - (now % 300);
log(`Building ${NODES} nodes with two days of 5-minute history (${handle.dialect})…`);
const ids = await buildFleet(db, { count: NODES, seed: 11, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 3, now: to });
await nodeReports(ctx).joined(ids);
await ctx.telemetry.ensurePartitions(to - 3 * 86_400, to + 86_400);
await publishWeather(db, to - 3 * 86_400, to + WEATHER_AHEAD_S, to);
const sim = new FleetSimulator(db, ctx.telemetry, { intervalS: 30, reports: nodeReports(ctx) });
await sim.load();
await sim.run(to - 2 * 86_400, to, 300);

const user = await db.selectFrom('users').select('id').where('username', '=', 'bench').executeTakeFirstOrThrow();
const automatic: number[] = [];
async function automaticVpp(name: string, members: readonly number[], gridCharging = true) {
  const { id } = await db
    .insertInto('powerstations')
    .values({ organisation_id: org, name, type: 'STATIC', state: null, duid: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < members.length; i += 500)
    await db
      .insertInto('vpp_nodes')
      .values(members.slice(i, i + 500).map((node_id) => ({ powerstation_id: id, node_id })))
      .execute();
  const p = DEFAULT_TRADING_POLICY;
  await savePolicy(db, {
    powerstation_id: id,
    organisation_id: org,
    mode: 'AUTOMATIC',
    from_hour: p.fromHour,
    to_hour: p.toHour,
    max_power_kw: p.maxPowerKw,
    min_soc_pct: p.minSocPct,
    max_cycles_per_day: p.maxCyclesPerDay,
    degradation_cost: p.degradationCostPerMWh,
    grid_charging: gridCharging ? 1 : 0,
    updated_by: user.id,
    updated_at: now,
    planned_at: null,
    suspended: null,
  });
  automatic.push(id);
  return id;
}
const policyOf = (id: number) => db.selectFrom('trading_policies').selectAll().where('powerstation_id', '=', id).executeTakeFirstOrThrow();
const psOf = (id: number) => db.selectFrom('powerstations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

// 1. The plan of the big VPP, five times each way (the first includes loading HiGHS).
const big = await automaticVpp('Bench trading', ids);
const solarOnly = await automaticVpp('Bench trading, no grid charging', ids, false);
async function timePlans(id: number) {
  const ps = await psOf(id);
  const row = await policyOf(id);
  const ms: number[] = [];
  let intervals = 0;
  let charged = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const out = await makePlan(ctx, ps, row, now);
    ms.push(performance.now() - t);
    if (!out.plan) throw new Error(`No plan: ${out.suspended}`);
    intervals = out.plan.intervals.length;
    charged = out.plan.intervals.reduce((s, p) => s + Math.max(0, p.kw) / 12, 0);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { firstMs: Math.round(ms[0]), medianMs: Math.round(sorted[2]), intervals, chargedKwh: Math.round(charged) };
}
log('Planning the big VPP…');
const withGrid = await timePlans(big);
const withoutGrid = await timePlans(solarOnly);
// The second exists for the timing only: it leaves the job's run to the others.
await savePolicy(db, { ...(await policyOf(solarOnly)), mode: 'OFF' });

// 2. Every automatic VPP due at once.
for (let v = 0; v < VPPS; v++) {
  const from = (v * 500) % Math.max(1, ids.length - 500);
  await automaticVpp(`Bench trading ${v + 1}`, ids.slice(from, from + 500));
}
for (const id of automatic) await savePolicy(db, { ...(await policyOf(id)), planned_at: null });
log(`Running the trading job over ${VPPS + 1} automatic VPPs…`);
let t = performance.now();
await runTrading(ctx, now);
const jobMs = performance.now() - t;
const dispatches = await db
  .selectFrom('dispatches')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('origin', '=', 'AUTOMATIC')
  .executeTakeFirstOrThrow();
const planned = await db.selectFrom('trading_policies').select(['planned_at', 'suspended']).where('mode', '=', 'AUTOMATIC').execute();

const figures: Record<string, unknown> = {
  database: handle.dialect,
  nodes: NODES,
  planFirstMs: withGrid.firstMs,
  planMedianMs: withGrid.medianMs,
  planIntervals: withGrid.intervals,
  planSolarOnlyFirstMs: withoutGrid.firstMs,
  planSolarOnlyMedianMs: withoutGrid.medianMs,
  planSolarOnlyChargedKwh: withoutGrid.chargedKwh,
  automaticVpps: VPPS + 1,
  jobRunMs: Math.round(jobMs),
  vppsPlanned: planned.filter((p) => p.planned_at === now).length,
  automaticDispatches: Number(dispatches.n),
};
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);

// 3. A month of prices.
const month: Record<string, unknown> = {};
if (!values['skip-month']) {
  const ps = await psOf(big);
  const region = await vppRegion(ctx, ps);
  if (!region) throw new Error('The bench VPP has no region.');
  const store = await vppStore(ctx, ps, now);
  const end = Math.floor((now + 10 * 3600) / 86_400) * 86_400 - 10 * 3600;
  const start = end - DAYS * 86_400;
  const actual = (await actualPrices(ctx, region, start, end, now)).map((p) => p.rrp);
  const imported = await db
    .selectFrom('market_forecasts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('region', '=', region)
    .executeTakeFirstOrThrow();
  const input = {
    start,
    actual,
    store: {
      capacityKwh: store.capacity,
      powerKw: store.power,
      floorKwh: store.capacity * Math.max(0.1, DEFAULT_TRADING_POLICY.minSocPct / 100),
      storedKwh: store.capacity / 2,
      efficiency: BATTERY_ONE_WAY_EFFICIENCY,
      degradationPerMWh: DEFAULT_TRADING_POLICY.degradationCostPerMWh,
      maxCyclesPerDay: DEFAULT_TRADING_POLICY.maxCyclesPerDay,
    },
    forecast: async (asOf: number, from: number, count: number) =>
      (await latestForecast(ctx, region, from, from + count * TRADING_STEP_S, asOf)).map((p) => p.rrp),
  };
  const perfect = async (_asOf: number, from: number, count: number) => {
    const i = (from - start) / TRADING_STEP_S;
    const known = actual.slice(i, i + count);
    // Beyond the month: the forecast as issued (only the first hours of a plan are acted on).
    return known.length === count ? known : [...known, ...(await input.forecast(from, from + known.length * TRADING_STEP_S, count - known.length))];
  };
  const row = (r: StrategyResult) => ({
    revenue: Math.round(r.revenue),
    dischargedMWh: Math.round(r.dischargedKwh / 100) / 10,
    chargedMWh: Math.round(r.chargedKwh / 100) / 10,
    cycles: Math.round(r.cycles * 10) / 10,
    mostInADay: Math.round(r.maxDayCycles * 100) / 100,
    lowestStoredKwh: Math.round(r.minStoredKwh),
    belowFloor: r.minStoredKwh < input.store.floorKwh - 1e-6,
  });
  const runs: [string, () => Promise<BacktestResult>][] = [
    ['re-plan 5 min', () => backtest({ ...input, replanS: 300 })],
    ['re-plan 30 min', () => backtest({ ...input, replanS: 1800 })],
    ['perfect forecast, re-plan 30 min', () => backtest({ ...input, forecast: perfect, replanS: 1800 })],
  ];
  const table: Record<string, ReturnType<typeof row> & { ms?: number; gainPct?: number | null }> = {};
  let naive: BacktestResult | undefined;
  for (const [name, run] of runs) {
    log(`Backtest: ${name}…`);
    t = performance.now();
    const r = await run();
    table[`optimiser, ${name}`] = {
      ...row(r.optimiser),
      ms: Math.round(performance.now() - t),
      gainPct: r.gainOverBestNaive === null ? null : Math.round(r.gainOverBestNaive * 1000) / 10,
    };
    naive ??= r;
  }
  if (naive) {
    table['price threshold'] = row(naive.threshold);
    table['evening window'] = row(naive.evening);
  }
  // biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
  console.table(table);
  Object.assign(month, {
    region,
    from: new Date(start * 1000).toISOString(),
    to: new Date(end * 1000).toISOString(),
    days: DAYS,
    prices: imported.n > 0 ? 'imported forecasts where issued, the model otherwise' : 'the market model (prices and its forecasts with their error)',
    storeKwh: Math.round(store.capacity),
    storeKw: Math.round(store.power),
    meanPrice: Math.round((actual.reduce((s, p) => s + p, 0) / actual.length) * 100) / 100,
    strategies: table,
  });
  log(`${region}, ${month.from} to ${month.to}: store ${month.storeKwh} kWh, ${month.storeKw} kW; mean price $${month.meanPrice}/MWh.`);
}

const file = path.join(import.meta.dirname, 'results.json');
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
fs.writeFileSync(file, `${JSON.stringify({ ...previous, [`trading-${handle.dialect}`]: { ...figures, month } }, null, 2)}\n`);
await close();
