// The backtest of a VPP's trading policy (issue 35, docs/trading.md):
//   npm run backtest -- --vpp 4 --from 2026-10-01 --to 2026-11-01 [--replan 30] [--above 300] [--below 40]
// Replays the actual prices of [from, to) (market days, UTC+10) against the VPP's batteries taken as one
// store (backtestVpp, as the Trading tab's backtest: their usable energy and power now; the floor above each
// customer's reserve and the limits of its trading policy, or the defaults), three ways: the optimiser re-planning every `replan` minutes against the price forecasts as they were issued
// then, and the two naive rules. Prints revenue, energy and cycles of each, and the optimiser's gain.
import { parseArgs } from 'node:util';
import type { BacktestFigures, StrategyFigures as StrategyResult } from '@vpp/shared/trading/schemas';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { backtestVpp, tradingPolicyOf } from '../features/trading/index.ts';
import { createContext } from '../platform/context.ts';
import { ApiError } from '../platform/errors.ts';

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
  let result: BacktestFigures;
  try {
    result = await backtestVpp(ctx, ps, await tradingPolicyOf(ctx, ps.id), from, to, {
      replanS: replanMin * 60,
      dischargeAbove: Number(values.above),
      chargeBelow: Number(values.below),
    });
  } catch (e) {
    if (e instanceof ApiError) fail(e.message);
    throw e;
  }
  const line = (r: StrategyResult) =>
    `${r.name.padEnd(16)} $${r.revenue.toFixed(2).padStart(12)}  ${(r.dischargedKwh / 1000).toFixed(2).padStart(9)} MWh out  ${(r.chargedKwh / 1000).toFixed(2).padStart(9)} MWh in  ${r.cycles.toFixed(1).padStart(6)} cycles (most in a day ${r.maxDayCycles.toFixed(2)})  lowest store ${r.minStoredKwh.toFixed(0)} kWh`;
  console.info(
    `${ps.name} (${result.region}): ${result.capacityKwh.toFixed(0)} kWh, ${result.powerKw.toFixed(0)} kW, floor ${result.floorKwh.toFixed(0)} kWh, ${values.from} to ${values.to}, ${result.plans} plans`,
  );
  for (const r of [result.optimiser, result.threshold, result.evening]) console.info(line(r));
  console.info(
    result.gainOverBestNaive === null
      ? 'Neither naive rule earned anything over the period.'
      : `The optimiser earned ${(result.gainOverBestNaive * 100).toFixed(1)} % more than the better naive rule.`,
  );
} finally {
  await handle.close();
}
