import { localMidnight } from '@vpp/shared/time';
import type { Database } from '../db/database.ts';
import { ordersOver } from '../devices/index.ts';
import type { AppContext } from '../platform/context.ts';
import {
  type CloudAt,
  type CloudResponse,
  clearSky,
  cloudTransmittance,
  type ExpectedPower,
  expectedPower,
  fitCloudResponse,
  KASTEN_CZEPLAK,
  LOOKBACK_DAYS,
  type ModelNode,
  median,
  type NodeProfile,
  ProfileBuilder,
  SLOT_S,
} from './forecast.model.ts';
import { weatherRows } from './weather.repo.ts';

// The console's forecast of its homes: profiles learnt from each node's measured history (read
// through the telemetry store), the weather the console keeps, and the forecast's error measured
// against what the homes then did.

/** A bucket counts when readings cover at least half of it. */
const MIN_COVERED_S = 150;
const HOUR_S = 3600;

/** The weather of postcodes over a window, hour by hour, read once and interpolated between hours. */
export class WeatherSeries {
  private readonly byPostcode = new Map<string, { start: number; cloud: Float32Array; temp: Float32Array }>();

  private constructor(rows: readonly { postcode: string; ts: number; cloud_cover: number; air_temp_c: number }[], start: number, end: number) {
    const hours = Math.ceil((end - start) / HOUR_S) + 1;
    for (const r of rows) {
      let p = this.byPostcode.get(r.postcode);
      if (!p) {
        p = { start, cloud: new Float32Array(hours).fill(Number.NaN), temp: new Float32Array(hours).fill(Number.NaN) };
        this.byPostcode.set(r.postcode, p);
      }
      const h = Math.floor((r.ts - start) / HOUR_S);
      if (h >= 0 && h < hours) {
        p.cloud[h] = r.cloud_cover;
        p.temp[h] = r.air_temp_c;
      }
    }
  }

  /** The weather of `postcodes` over [start, end). */
  static async read(db: Database, postcodes: Iterable<string>, start: number, end: number): Promise<WeatherSeries> {
    const from = start - (start % HOUR_S) - HOUR_S;
    const to = end + HOUR_S;
    return new WeatherSeries(await weatherRows(db, [...new Set(postcodes)], from, to), from, to);
  }

  private at(values: 'cloud' | 'temp', postcode: string, ts: number): number {
    const p = this.byPostcode.get(postcode);
    if (!p) return Number.NaN;
    // Each hour's value stands at the middle of its hour.
    const x = (ts - p.start) / HOUR_S - 0.5;
    const h = Math.floor(x);
    const a = p[values][h];
    const b = p[values][h + 1];
    if (Number.isFinite(a) && Number.isFinite(b)) return a + (b - a) * (x - h);
    return Number.isFinite(a) ? a : (b ?? Number.NaN);
  }

  cloud: CloudAt = (postcode, ts) => this.at('cloud', postcode, ts);
  temperature = (postcode: string, ts: number) => this.at('temp', postcode, ts);

  /** The mean dimming of a postcode's known hours: the climate, where the forecast does not reach. */
  climate = (postcode: string, response: CloudResponse): number => {
    const p = this.byPostcode.get(postcode);
    let sum = 0;
    let n = 0;
    for (const c of p?.cloud ?? []) {
      if (!Number.isFinite(c)) continue;
      sum += cloudTransmittance(c, response);
      n++;
    }
    return n ? sum / n : 1;
  };
}

const profileCache = new WeakMap<Database, Map<string, NodeProfile>>();
/** The cloud response learnt per database and cutoff day (from the first profiles built for it). */
const responseCache = new WeakMap<Database, Map<number, CloudResponse>>();
/** Profiles kept per database: a few per node (today's, and yesterday's for the error). */
const PROFILE_CACHE_LIMIT = 500_000;

/**
 * Each node's profile from its history over the LOOKBACK_DAYS local days before `cutoff(node)` (a
 * local midnight), read through the telemetry store's one read of history, 500 nodes at a time.
 * Profiles of complete days do not change: they are kept for the next forecast.
 */
export async function nodeProfiles(
  ctx: AppContext,
  nodes: readonly ModelNode[],
  cutoff: (n: ModelNode) => number,
): Promise<{ profiles: NodeProfile[]; response: CloudResponse }> {
  const cache = profileCache.get(ctx.db) ?? new Map<string, NodeProfile>();
  profileCache.set(ctx.db, cache);
  const responses = responseCache.get(ctx.db) ?? new Map<number, CloudResponse>();
  responseCache.set(ctx.db, responses);
  if (cache.size > PROFILE_CACHE_LIMIT) cache.clear();
  const out = new Array<NodeProfile>(nodes.length);
  const missing: { index: number; node: ModelNode; cutoff: number }[] = [];
  nodes.forEach((n, index) => {
    const c = cutoff(n);
    const hit = cache.get(`${n.id}|${c}`);
    if (hit) out[index] = hit;
    else missing.push({ index, node: n, cutoff: c });
  });
  for (let i = 0; i < missing.length; i += 500) {
    const chunk = missing.slice(i, i + 500);
    const start = Math.min(...chunk.map((m) => m.cutoff)) - (LOOKBACK_DAYS + 1) * 86_400;
    const end = Math.max(...chunk.map((m) => m.cutoff));
    const weather = await WeatherSeries.read(
      ctx.db,
      chunk.map((m) => m.node.postcode),
      start,
      end,
    );
    const builders = new Map(chunk.map((m) => [m.node.id, { m, b: new ProfileBuilder(m.node, m.cutoff) }]));
    await ctx.telemetry.buckets(
      chunk.map((m) => m.node.id),
      ['sga_p', 'house_p'],
      start,
      end,
      (id, ts, cov, values) => {
        const entry = builders.get(id);
        if (!entry || !(cov >= MIN_COVERED_S) || ts >= entry.m.cutoff) return;
        const { m, b } = entry;
        // The stream holds time integrals: each average is the integral over the seconds covered.
        const mid = ts + SLOT_S / 2;
        b.add(ts, values[0] / cov, values[1] / cov, clearSky(m.node.lat, m.node.lng, mid), weather.cloud(m.node.postcode, mid));
      },
    );
    const key = chunk[0].cutoff;
    let response = responses.get(key);
    if (!response) {
      response = fitCloudResponse([...builders.values()].map((e) => e.b));
      if (responses.size > 100) responses.clear();
      responses.set(key, response);
    }
    for (const { m, b } of builders.values()) {
      const p = b.build(response, weather.climate(m.node.postcode, response));
      cache.set(`${m.node.id}|${m.cutoff}`, p);
      out[m.index] = p;
    }
  }
  const last = nodes.length ? Math.max(...nodes.map(cutoff)) : 0;
  return { profiles: out, response: responses.get(last) ?? [...responses.values()].at(-1) ?? KASTEN_CZEPLAK };
}

/**
 * The nodes' expected solar and load at `count` 5-minute steps from `from`: each from its profile of
 * the days before the day of `from` (its local day), and the weather the console keeps.
 */
export async function forecastPower(ctx: AppContext, nodes: readonly ModelNode[], from: number, count: number): Promise<ExpectedPower> {
  const { profiles, response } = await nodeProfiles(ctx, nodes, (n) => localMidnight(n.timezone, from));
  const weather = await WeatherSeries.read(
    ctx.db,
    nodes.map((n) => n.postcode),
    from - LOOKBACK_DAYS * 86_400,
    from + count * SLOT_S,
  );
  return expectedPower(nodes, profiles, from, count, weather.cloud, (p) => weather.climate(p, response), response);
}

/** How far the forecast of a VPP's homes was from what they then did, over a day at 5 minutes. */
export interface ForecastErrorFigures {
  /** The day measured, [start, end): the 24 hours up to the latest local midnight of the homes' zones. */
  start: number;
  end: number;
  /** 5-minute intervals compared (with at least one undisturbed home reporting). */
  intervals: number;
  /** The VPP's homes together: the median over intervals of |forecast − measured| net demand, kW. */
  medianAbsoluteErrorKw: number | null;
  /** The same as a share of the mean absolute measured net demand, percent. */
  relativeErrorPercent: number | null;
  /** Home by home: the median over homes and intervals of |forecast − measured|, kW, and as a share of each home's mean load, percent. */
  homeMedianAbsoluteErrorKw: number | null;
  homeRelativeErrorPercent: number | null;
}

const errorCache = new WeakMap<Database, Map<string, ForecastErrorFigures>>();

/**
 * The forecast's error for a set of homes over the last day (ForecastErrorFigures): at each 5-minute
 * interval, the day-ahead forecast (profiles of the days before it, the weather as last issued) of each
 * undisturbed home's net demand before its battery (load less the solar available) against what it
 * measured. A home is disturbed in an interval where an order of any event held it (a dispatch, a
 * curtailment, an outage; a standing default limit does not change the solar available and is
 * ignored). Kept per set of homes and day.
 */
export async function forecastError(ctx: AppContext, nodes: readonly ModelNode[], now: number): Promise<ForecastErrorFigures> {
  // One day for the whole VPP: the 24 hours up to the latest local midnight of its homes' zones.
  const end = nodes.length ? Math.max(...nodes.map((n) => localMidnight(n.timezone, now))) : localMidnight('UTC', now);
  const start = end - 86_400;
  const key = `${start}|${nodes.map((n) => n.id).join(',')}`;
  const cache = errorCache.get(ctx.db) ?? new Map<string, ForecastErrorFigures>();
  errorCache.set(ctx.db, cache);
  const hit = cache.get(key);
  if (hit) return hit;
  const count = Math.ceil((end - start) / SLOT_S);
  // Each home forecast from the days before the local day the window begins in: nothing of the window is known.
  const { profiles, response } = await nodeProfiles(ctx, nodes, (n) => localMidnight(n.timezone, start));
  const weather = await WeatherSeries.read(
    ctx.db,
    nodes.map((n) => n.postcode),
    start - LOOKBACK_DAYS * 86_400,
    end,
  );
  const expected = expectedPower(nodes, profiles, start, count, weather.cloud, (p) => weather.climate(p, response), response);
  const disturbed = await disturbedSlots(ctx.db, nodes, start, end);
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const forecastSum = new Float64Array(count);
  const measuredSum = new Float64Array(count);
  const seen = new Uint8Array(count);
  const homeErrors: number[] = [];
  const homeLoad = new Float64Array(nodes.length);
  const homeBuckets = new Float64Array(nodes.length);
  const homeMedians: number[][] = nodes.map(() => []);
  await ctx.telemetry.buckets(
    nodes.map((n) => n.id),
    ['sga_p', 'house_p'],
    start,
    end,
    (id, ts, cov, values) => {
      const i = index.get(id);
      if (i === undefined || !(cov >= MIN_COVERED_S)) return;
      const step = (ts - start) / SLOT_S;
      if (disturbed.has(`${id}|${ts}`)) return;
      const sga = values[0] / cov;
      const house = values[1] / cov;
      if (!Number.isFinite(sga) || !Number.isFinite(house)) return;
      const measured = house - sga;
      const predicted = expected.houseKw(i, step) - expected.solarKw(i, step);
      forecastSum[step] += predicted;
      measuredSum[step] += measured;
      seen[step] = 1;
      homeMedians[i].push(Math.abs(predicted - measured));
      homeLoad[i] += house;
      homeBuckets[i]++;
    },
  );
  const errors: number[] = [];
  let measuredAbs = 0;
  for (let k = 0; k < count; k++) {
    if (!seen[k]) continue;
    errors.push(Math.abs(forecastSum[k] - measuredSum[k]));
    measuredAbs += Math.abs(measuredSum[k]);
  }
  const relative: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (!homeBuckets[i]) continue;
    const meanLoad = homeLoad[i] / homeBuckets[i];
    for (const e of homeMedians[i]) {
      homeErrors.push(e);
      if (meanLoad > 0) relative.push((e / meanLoad) * 100);
    }
  }
  const mdae = errors.length ? median(errors) : null;
  const figures: ForecastErrorFigures = {
    start,
    end,
    intervals: errors.length,
    medianAbsoluteErrorKw: mdae === null ? null : r3(mdae),
    relativeErrorPercent: mdae === null || measuredAbs === 0 ? null : r1((mdae / (measuredAbs / errors.length)) * 100),
    homeMedianAbsoluteErrorKw: homeErrors.length ? r3(median(homeErrors)) : null,
    homeRelativeErrorPercent: relative.length ? r1(median(relative)) : null,
  };
  if (cache.size > 1000) cache.clear();
  cache.set(key, figures);
  return figures;
}

/** The (node, bucket) pairs over [start, end) in which an event's order held the node. */
async function disturbedSlots(db: Database, nodes: readonly ModelNode[], start: number, end: number): Promise<Set<string>> {
  const out = new Set<string>();
  for (const r of await ordersOver(
    db,
    nodes.map((n) => n.id),
    start,
    end,
  )) {
    if (isStanding(r.params)) continue;
    const from = Math.max(start, Number(r.start_ts) - (Number(r.start_ts) % SLOT_S));
    for (let t = from; t < Math.min(end, Number(r.end_ts)); t += SLOT_S) out.add(`${r.node_id}|${t}`);
  }
  return out;
}

function isStanding(params: string): boolean {
  try {
    return (JSON.parse(params) as { standing?: unknown }).standing === true;
  } catch {
    return false;
  }
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const r1 = (v: number) => Math.round(v * 10) / 10;
