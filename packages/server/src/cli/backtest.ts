// The backtest of a VPP's trading policy (issue 35, docs/trading.md):
//   npm run backtest -- --vpp 4 --from 2026-10-01 --to 2026-11-01 [--replan 30] [--above 300] [--below 40]
// Replays the actual prices of [from, to) (market days, UTC+10) against the VPP's batteries taken as one
// store (their usable energy and power; the floor and limits of its trading policy, or the defaults), three
// ways: the optimiser re-planning every `replan` minutes against the price forecasts as they were issued
// then, and the two naive rules. Prints revenue, energy and cycles of each, and the optimiser's gain.
import { parseArgs } from 'node:util';
import { DEFAULT_TRADING_POLICY, TRADING_STEP_S } from '@vpp/shared';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { actualPrices, latestForecast, vppRegion } from '../features/market/index.ts';
import { backtest, type StrategyResult } from '../features/trading/index.ts';
import { memberNodes } from '../features/vpps/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY } from '../forecast/index.ts';
import { createContext } from '../platform/context.ts';

const { values } = parseArgs({
  options: {
    vpp: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    replan: { type: 'string', default: '30' },
    above: { type: 'string', default: '300' },
    below: { type: 'string', default: '40' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const marketMidnight = (day: string | undefined, name: string) => {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) fail(`--${name} must be a date, YYYY-MM-DD (market time).`);
  const t = Date.parse(`${day}T00:00:00+10:00`) / 1000;
  if (!Number.isFinite(t)) fail(`--${name} is not a date: ${day}.`);
  return t;
};
const vppId = Number(values.vpp);
if (!Number.isInteger(vppId) || vppId <= 0) fail('--vpp must be the id of a VPP.');
const from = marketMidnight(values.from, 'from');
const to = marketMidnight(values.to, 'to');
if (to <= from) fail('--to must be after --from.');
if (to - from > 92 * 86_400) fail('A backtest covers at most 92 days.');
const replanMin = Number(values.replan);
if (!Number.isInteger(replanMin) || replanMin < 5 || replanMin % 5 !== 0) fail('--replan must be a whole number of minutes, a multiple of 5.');

const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
try {
  const ctx = await createContext(config, handle.db, handle.dialect);
  const ps = await handle.db.selectFrom('powerstations').selectAll().where('id', '=', vppId).executeTakeFirst();
  if (!ps) fail(`There is no VPP ${vppId}.`);
  const region = await vppRegion(ctx, ps);
  if (!region) fail(`${ps.name} has no nodes in the NEM: there is no price to trade against.`);
  const plate = await memberNodes(handle.db, ps)
    .select((eb) => [eb.fn.sum<number>('nodes.battery_usable_kwh').as('kwh'), eb.fn.sum<number>('nodes.battery_kw').as('kw')])
    .where('nodes.battery_usable_kwh', '>', 0)
    .executeTakeFirst();
  const capacity = Number(plate?.kwh ?? 0);
  const power = Number(plate?.kw ?? 0);
  if (!(capacity > 0 && power > 0)) fail(`${ps.name} has no batteries.`);
  const row = await handle.db.selectFrom('trading_policies').selectAll().where('powerstation_id', '=', ps.id).executeTakeFirst();
  const minSoc = row?.min_soc_pct ?? DEFAULT_TRADING_POLICY.minSocPct;
  const actual = await actualPrices(ctx, region, from, to);
  if (actual.length < (to - from) / TRADING_STEP_S) fail('The period must have ended: actual prices are known only for intervals that have.');
  const result = await backtest({
    start: from,
    actual: actual.map((p) => p.rrp),
    store: {
      capacityKwh: capacity,
      powerKw: row?.max_power_kw == null ? power : Math.min(power, row.max_power_kw),
      floorKwh: capacity * Math.max(0.1, minSoc / 100),
      storedKwh: capacity / 2,
      efficiency: BATTERY_ONE_WAY_EFFICIENCY,
      degradationPerMWh: row?.degradation_cost ?? DEFAULT_TRADING_POLICY.degradationCostPerMWh,
      maxCyclesPerDay: row?.max_cycles_per_day ?? DEFAULT_TRADING_POLICY.maxCyclesPerDay,
    },
    forecast: async (asOf, start, count) => (await latestForecast(ctx, region, start, start + count * TRADING_STEP_S, asOf)).map((p) => p.rrp),
    replanS: replanMin * 60,
    dischargeAbove: Number(values.above),
    chargeBelow: Number(values.below),
  });
  const line = (r: StrategyResult) =>
    `${r.name.padEnd(16)} $${r.revenue.toFixed(2).padStart(12)}  ${(r.dischargedKwh / 1000).toFixed(2).padStart(9)} MWh out  ${(r.chargedKwh / 1000).toFixed(2).padStart(9)} MWh in  ${r.cycles.toFixed(1).padStart(6)} cycles (most in a day ${r.maxDayCycles.toFixed(2)})  lowest store ${r.minStoredKwh.toFixed(0)} kWh`;
  console.info(`${ps.name} (${region}): ${capacity.toFixed(0)} kWh, ${power.toFixed(0)} kW, ${values.from} to ${values.to}, ${result.plans} plans`);
  for (const r of [result.optimiser, result.threshold, result.evening]) console.info(line(r));
  console.info(
    result.gainOverBestNaive === null
      ? 'Neither naive rule earned anything over the period.'
      : `The optimiser earned ${(result.gainOverBestNaive * 100).toFixed(1)} % more than the better naive rule.`,
  );
} finally {
  await handle.close();
}
