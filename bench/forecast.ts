// `npm run bench:forecast -- --nodes 500 --days 15`: the console's own forecast against what the
// homes then did (issue 28 item 5, issue 33 §2). Builds a fleet, simulates `days` of 5-minute
// history with the demo world's weather, and measures the forecast's error on the last whole day:
// the day-ahead forecast of each undisturbed home's net demand (load less the solar available)
// against its measurement, at 5 minutes, as a VPP's prediction reports it. Prints the median
// absolute error home by home (kW, and as a share of each home's mean load) and for the fleet
// together, the dispatch baseline's median error on the undisturbed homes (issue 33), and how long the profiles of the fleet take to build and the day's forecast to run.
// Then the price forecast's error by horizon (issue 33 item 2): for every region, a run every 30
// minutes over the last `days`, its forecast of each interval up to 36 hours ahead (latestForecast,
// as the quotes and the optimiser read it: imported runs where there are, the model's otherwise)
// against the actual price (actualPrices): the mean and median absolute error per horizon band.
// Adds its figures to bench/results.json. PostgreSQL: set BENCH_DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startOfPeriod } from '@vpp/shared/time';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { FleetSimulator } from '../packages/server/src/demo/simulator.ts';
import { publishWeather, WEATHER_AHEAD_S } from '../packages/server/src/demo/weather.ts';
import { medianOf, meterBaselines, weightedError } from '../packages/server/src/features/dispatches/index.ts';
import { actualPrices, latestForecast } from '../packages/server/src/features/market/index.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
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

const rows = await handle.db
  .selectFrom('nodes')
  .select(['id', 'lat', 'lng', 'postcode', 'timezone', 'solar_kw', 'inverter_kw', 'battery_kw', 'battery_usable_kwh'])
  .where('id', 'in', ids)
  .execute();
const nodes: ModelNode[] = rows.map((n) => ({
  id: n.id,
  lat: n.lat,
  lng: n.lng,
  postcode: n.postcode,
  timezone: n.timezone,
  solarKw: n.solar_kw,
  inverterKw: n.inverter_kw,
}));

let t = performance.now();
const error = await forecastError(ctx, nodes, now);
const errorMs = performance.now() - t;
t = performance.now();
await forecastPower(ctx, nodes, to, 288);
const profilesMs = performance.now() - t;
t = performance.now();
await forecastPower(ctx, nodes, to, 288);
const cachedMs = performance.now() - t;

// Issue 33 item 1: the dispatch baseline (its stated method: the metered counterfactual, with comparable days as fallback) on undisturbed
// homes (no dispatch ran), at 5 minutes: four one-hour windows of the last whole local day, each home's
// Σ|baseline − measured| ÷ Σ|measured| over them, the median over homes.
t = performance.now();
const zone = 'Australia/Sydney';
const lastDay = startOfPeriod(startOfPeriod(to, 'day', zone) - 43_200, 'day', zone);
const homes = rows.map((n) => ({ id: n.id, timezone: n.timezone, battery_kw: n.battery_kw, battery_usable_kwh: n.battery_usable_kwh }));
// The meter's power is the home's load less its solar and battery: it swings around zero, so the same
// error is also given relative to the home's own consumption (house_p, its mean load), and for the
// homes together (the VPP's aggregate, as a dispatch is settled).
const pooled = new Map<number, { b: number[]; a: number[]; load: number[] }>();
const aggregate = { err: 0, tot: 0, load: 0 };
for (const hour of [7, 12, 17, 20]) {
  const s = lastDay + hour * 3600;
  const baselines = await meterBaselines(ctx, homes, s, s + 3600, 0);
  const measured = new Map<number, Float64Array>();
  const load = new Map<number, Float64Array>();
  for (const n of homes) {
    measured.set(n.id, new Float64Array(12).fill(Number.NaN));
    load.set(n.id, new Float64Array(12).fill(Number.NaN));
  }
  await ctx.telemetry.buckets(ids, ['meter_p', 'house_p'], s, s + 3600, (id, ts, cov, v) => {
    if (cov > 0 && !Number.isNaN(v[0])) (measured.get(id) as Float64Array)[(ts - s) / 300] = v[0] / cov;
    if (cov > 0 && !Number.isNaN(v[1])) (load.get(id) as Float64Array)[(ts - s) / 300] = v[1] / cov;
  });
  const sumB = new Float64Array(12);
  const sumA = new Float64Array(12);
  for (const n of homes) {
    const p = pooled.get(n.id) ?? { b: [], a: [], load: [] };
    const b = baselines.get(n.id)?.kw ?? new Float64Array(12).fill(Number.NaN);
    const a = measured.get(n.id) as Float64Array;
    const l = load.get(n.id) as Float64Array;
    p.b.push(...b);
    p.a.push(...a);
    p.load.push(...l);
    pooled.set(n.id, p);
    // The aggregate: the homes with a baseline and a reading in every interval of the hour.
    if ([...b, ...a, ...l].some((v) => Number.isNaN(v))) continue;
    for (let k = 0; k < 12; k++) {
      sumB[k] += b[k];
      sumA[k] += a[k];
      aggregate.load += l[k];
    }
  }
  for (let k = 0; k < 12; k++) {
    aggregate.err += Math.abs(sumB[k] - sumA[k]);
    aggregate.tot += Math.abs(sumA[k]);
  }
}
const homeErrors = [...pooled.values()].map((p) => weightedError(p.b, p.a)).filter((e): e is number => e !== null);
/** Per home Σ|baseline − measured| ÷ Σ load over the intervals with all three. */
const loadError = (p: { b: number[]; a: number[]; load: number[] }) => {
  let err = 0;
  let tot = 0;
  for (let k = 0; k < p.a.length; k++) {
    if (Number.isNaN(p.b[k]) || Number.isNaN(p.a[k]) || Number.isNaN(p.load[k])) continue;
    err += Math.abs(p.b[k] - p.a[k]);
    tot += Math.abs(p.load[k]);
  }
  return tot > 0 ? err / tot : null;
};
const homeLoadErrors = [...pooled.values()].map(loadError).filter((e): e is number => e !== null);
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
  baselineMedianErrorOfLoadPercent: Math.round((medianOf(homeLoadErrors) ?? Number.NaN) * 1000) / 10,
  baselineAggregateErrorPercent: Math.round((aggregate.tot > 0 ? aggregate.err / aggregate.tot : Number.NaN) * 1000) / 10,
  baselineAggregateErrorOfLoadPercent: Math.round((aggregate.load > 0 ? aggregate.err / aggregate.load : Number.NaN) * 1000) / 10,
  baselineMs: Math.round(baselineMs),
};
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);

const BANDS = [
  { label: '0-5 min', to: 300 },
  { label: '5-30 min', to: 1800 },
  { label: '30 min-1 h', to: 3600 },
  { label: '1-4 h', to: 4 * 3600 },
  { label: '4-12 h', to: 12 * 3600 },
  { label: '12-24 h', to: 24 * 3600 },
  { label: '24-36 h', to: 36 * 3600 },
];
const errors = BANDS.map(() => [] as number[]);
const spikes = BANDS.map(() => ({ n: 0, seen: 0 }));
t = performance.now();
const priceFrom = to - DAYS * 86_400;
for (const region of ['NSW1', 'QLD1', 'VIC1', 'SA1', 'TAS1'] as const) {
  const actual = new Map((await actualPrices(ctx, region, priceFrom, to, now)).map((p) => [p.start, p.rrp]));
  for (let run = priceFrom; run < to; run += 1800)
    for (const f of await latestForecast(ctx, region, run, Math.min(to, run + 36 * 3600), run)) {
      const a = actual.get(f.start);
      if (a === undefined) continue;
      const band = BANDS.findIndex((b) => f.horizon < b.to);
      if (band < 0) continue;
      errors[band].push(Math.abs(f.rrp - a));
      if (a >= 1000) {
        spikes[band].n++;
        if (f.rrp >= 1000) spikes[band].seen++;
      }
    }
}
const priceMs = performance.now() - t;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};
const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
const priceError = BANDS.map((b, i) => ({
  horizon: b.label,
  forecasts: errors[i].length,
  meanAbsoluteErrorPerMWh: round(errors[i].reduce((a, v) => a + v, 0) / Math.max(1, errors[i].length)),
  medianAbsoluteErrorPerMWh: round(median(errors[i])),
  spikesOver1000: spikes[i].n,
  spikesForecast: spikes[i].seen,
}));
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(priceError);
log(`Price forecast error: ${Math.round(priceMs)} ms for ${errors.reduce((a, e) => a + e.length, 0)} forecasts.`);
const file = path.join(import.meta.dirname, 'results.json');
const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
fs.writeFileSync(
  file,
  `${JSON.stringify({ ...previous, [`forecast-${handle.dialect}`]: { ...figures, priceError, priceErrorMs: Math.round(priceMs) } }, null, 2)}\n`,
);
await close();
