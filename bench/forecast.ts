// `npm run bench:forecast -- --nodes 500 --days 15`: the console's own forecast against what the
// homes then did (issue 28 item 5, issue 33 §2). Builds a fleet, simulates `days` of 5-minute
// history with the demo world's weather, and measures the forecast's error on the last whole day:
// the day-ahead forecast of each undisturbed home's net demand (load less the solar available)
// against its measurement, at 5 minutes, as a VPP's prediction reports it. Prints the median
// absolute error home by home (kW, and as a share of each home's mean load) and for the fleet
// together, the dispatch baseline's median error on the undisturbed homes (issue 33), and how long the profiles of the fleet take to build and the day's forecast to run.
// Adds its figures to bench/results.json. PostgreSQL: set BENCH_DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOfPeriod } from '@vpp/shared';
import { medianOf, meterBaselines, weightedError } from '../packages/server/src/features/dispatches/index.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { buildFleet } from '../packages/server/src/fleet/builder.ts';
import { FleetSimulator } from '../packages/server/src/fleet/simulator.ts';
import { publishWeather, WEATHER_AHEAD_S } from '../packages/server/src/fleet/weather.ts';
import { forecastError, forecastPower, type ModelNode } from '../packages/server/src/forecast/index.ts';
import { openBench } from './setup.ts';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '500' }, days: { type: 'string', default: '15' } } });
const NODES = Number(values.nodes);
const DAYS = Number(values.days);
if (!(DAYS >= 2)) throw new Error('--days must be 2 or more: a day of history before the day measured.');
const log = (s: string) => process.stderr.write(`${s}\n`);

const { handle, ctx, org, close } = await openBench('forecast');
const now = Math.floor(Date.now() / 1000);
const to = now - (now % 300);
const from = to - DAYS * 86_400;
log(`Building ${NODES} nodes and ${DAYS} days of history (${handle.dialect})…`);
const ids = await buildFleet(handle.db, {
  count: NODES,
  seed: 5,
  owners: { retailers: [org], networks: new Map(), installers: [] },
  historyDays: DAYS + 2,
  now: to,
});
await nodeReports(ctx).joined(ids);
await ctx.telemetry.ensurePartitions(from - 86_400, to + 86_400);
await publishWeather(handle.db, from - 86_400, to + WEATHER_AHEAD_S, to);
const sim = new FleetSimulator(handle.db, ctx.telemetry, { intervalS: 30, reports: nodeReports(ctx) });
await sim.load();
for (let d = from; d < to; d += 86_400) await sim.run(d, Math.min(to, d + 86_400) - 300, 300);
await ctx.telemetry.compact();

const nodes: ModelNode[] = (
  await handle.db.selectFrom('nodes').select(['id', 'lat', 'lng', 'postcode', 'timezone', 'solar_kw', 'inverter_kw']).where('id', 'in', ids).execute()
).map((n) => ({ id: n.id, lat: n.lat, lng: n.lng, postcode: n.postcode, timezone: n.timezone, solarKw: n.solar_kw, inverterKw: n.inverter_kw }));

let t = performance.now();
const error = await forecastError(ctx, nodes, now);
const errorMs = performance.now() - t;
t = performance.now();
await forecastPower(ctx, nodes, to, 288);
const profilesMs = performance.now() - t;
t = performance.now();
await forecastPower(ctx, nodes, to, 288);
const cachedMs = performance.now() - t;

// Issue 33 item 1: the dispatch baseline (comparable days with a same-day adjustment) on undisturbed
// homes (no dispatch ran), at 5 minutes: four one-hour windows of the last whole local day, each home's
// Σ|baseline − measured| ÷ Σ|measured| over them, the median over homes.
t = performance.now();
const zone = 'Australia/Sydney';
const lastDay = startOfPeriod(startOfPeriod(to, 'day', zone) - 43_200, 'day', zone);
const homes = nodes.map((n) => ({ id: n.id, timezone: n.timezone }));
const pooled = new Map<number, { b: number[]; a: number[] }>();
for (const hour of [7, 12, 17, 20]) {
  const s = lastDay + hour * 3600;
  const baselines = await meterBaselines(ctx, homes, s, s + 3600, 0);
  const measured = new Map<number, Float64Array>();
  for (const n of homes) measured.set(n.id, new Float64Array(12).fill(Number.NaN));
  await ctx.telemetry.buckets(ids, ['meter_p'], s, s + 3600, (id, ts, cov, v) => {
    if (cov > 0 && !Number.isNaN(v[0])) (measured.get(id) as Float64Array)[(ts - s) / 300] = v[0] / cov;
  });
  for (const n of homes) {
    const p = pooled.get(n.id) ?? { b: [], a: [] };
    p.b.push(...(baselines.get(n.id)?.kw ?? []));
    p.a.push(...(measured.get(n.id) as Float64Array));
    pooled.set(n.id, p);
  }
}
const homeErrors = [...pooled.values()].map((p) => weightedError(p.b, p.a)).filter((e): e is number => e !== null);
const baselineMs = performance.now() - t;

const figures = {
  nodes: NODES,
  days: DAYS,
  intervals: error.intervals,
  homeMedianAbsoluteErrorKw: error.homeMedianAbsoluteErrorKw,
  homeRelativeErrorPercent: error.homeRelativeErrorPercent,
  fleetMedianAbsoluteErrorKw: error.medianAbsoluteErrorKw,
  fleetRelativeErrorPercent: error.relativeErrorPercent,
  errorDayMs: Math.round(errorMs),
  forecastFirstMs: Math.round(profilesMs),
  forecastCachedMs: Math.round(cachedMs),
  baselineHomes: homeErrors.length,
  baselineMedianErrorPercent: Math.round((medianOf(homeErrors) ?? Number.NaN) * 1000) / 10,
  baselineMs: Math.round(baselineMs),
};
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);
const file = path.join(import.meta.dirname, 'results.json');
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
fs.writeFileSync(file, `${JSON.stringify({ ...previous, [`forecast-${handle.dialect}`]: figures }, null, 2)}\n`);
await close();
