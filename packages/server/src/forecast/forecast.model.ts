import { tzOffsetS } from '@vpp/shared/time';
import * as SunCalc from 'suncalc';

// The console's own model of a home's next hours, with no database: what its measured history says
// of each 5-minute slot of the day, scaled by a clear-sky model of the sun and the cloud forecast.

/** The model's step: the dispatch time step and the telemetry's finest bucket. */
export const SLOT_S = 300;
export const SLOTS_PER_DAY = 86_400 / SLOT_S;
/** Days of history a profile is built from, before the day it forecasts. */
export const LOOKBACK_DAYS = 21;
/** Most recent comparable days (weekdays, or weekend days) a load slot's median is taken over. */
export const COMPARABLE_DAYS = 10;
/** Fewer comparable days than this, and the load's median is taken over every day instead. */
const MIN_COMPARABLE_DAYS = 3;
/** Below this clear-sky fraction (the sun under about 6°) a solar reading says too little of the panels to scale by. */
const MIN_CLEAR_SKY = 0.05;
/**
 * A home battery's one-way efficiency: the datasheets of the fleet's batteries give about 90 %
 * round trip, split evenly between charge and discharge.
 */
export const BATTERY_ONE_WAY_EFFICIENCY = 0.95;

/** A node as the model needs it: where it is, its local clock and its inverter's cap. */
export interface ModelNode {
  id: number;
  lat: number;
  lng: number;
  postcode: string;
  timezone: string;
  /** Panels, kW: scales a new home's solar from its neighbours'. */
  solarKw: number;
  inverterKw: number;
}

/**
 * What a node's history says of each local 5-minute slot: the solar available per unit of clear,
 * cloud-scaled sky (the panels' size, tilt and shade, learnt), and the household's load on weekdays
 * and weekend days (kW). NaN where the history has nothing.
 */
export interface NodeProfile {
  solarPerSky: Float32Array;
  /** Weekday slots, then weekend slots. */
  house: Float32Array;
  /** Days of history the profile was built from (0: none, the node is new). */
  days: number;
}

const sunCache = new Map<number, number>();

/**
 * Clear-sky irradiance as a fraction of 1,000 W/m², from the sun's elevation at a place and instant
 * (Haurwitz 1945: 1098 cos z · exp(−0.057 / cos z) W/m²). Positions are cached on a 0.1° grid per
 * 5 minutes: neighbours share them.
 */
export function clearSky(lat: number, lng: number, ts: number): number {
  const key = Math.floor(ts / SLOT_S) * 1e7 + Math.round((lat + 50) * 10) * 2000 + Math.round((lng - 90) * 10);
  let v = sunCache.get(key);
  if (v === undefined) {
    // This suncalc answers the altitude in degrees.
    const cosZ = Math.sin((SunCalc.getPosition(new Date(ts * 1000), lat, lng).altitude * Math.PI) / 180);
    v = cosZ <= 0.01 ? 0 : 1.098 * cosZ * Math.exp(-0.057 / cosZ);
    if (sunCache.size > 2_000_000) sunCache.clear();
    sunCache.set(key, v);
  }
  return v;
}

/**
 * How clouds dim the panels: the share of clear-sky output left under a cover of 0 to 1 is
 * 1 − depth × cover^shape. Learnt from the fleet's history (`fitCloudResponse`); Kasten and
 * Czeplak's (1980) relation for irradiance stands in until there is history enough.
 */
export interface CloudResponse {
  depth: number;
  shape: number;
}
export const KASTEN_CZEPLAK: CloudResponse = { depth: 0.75, shape: 3.4 };

/** Share of clear-sky output under a cloud cover (0 to 1). */
export function cloudTransmittance(cover: number, response: CloudResponse = KASTEN_CZEPLAK): number {
  return 1 - response.depth * Math.min(1, Math.max(0, cover)) ** response.shape;
}

/** The local slot (0 to 287) of an instant and whether its local day is a Saturday or Sunday. */
export function localSlot(zone: string, ts: number): { slot: number; weekend: boolean; day: number } {
  const local = ts + tzOffsetS(zone, ts);
  const day = Math.floor(local / 86_400);
  const dow = (day + 4) % 7; // 1 January 1970 was a Thursday (4).
  return { slot: Math.floor((local - day * 86_400) / SLOT_S), weekend: dow === 0 || dow === 6, day };
}

/** The median of the finite values of `xs` (NaN for none); sorts `xs` in place. */
export function median(xs: Float64Array | number[]): number {
  const v = (Array.from(xs) as number[]).filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Collects a node's 5-minute readings of the days before `cutoff` (a local midnight) and makes its
 * profile: each slot's median over the days of history, the solar first divided by the sky it had.
 */
export class ProfileBuilder {
  /** Per day back (0 the day before the cutoff) and slot: solar per clear sky, the cloud cover then, and load. */
  readonly solar = new Float64Array(LOOKBACK_DAYS * SLOTS_PER_DAY).fill(Number.NaN);
  readonly cover = new Float64Array(LOOKBACK_DAYS * SLOTS_PER_DAY).fill(Number.NaN);
  private readonly house = new Float64Array(LOOKBACK_DAYS * SLOTS_PER_DAY).fill(Number.NaN);
  private readonly weekend = new Uint8Array(LOOKBACK_DAYS);
  private readonly seen = new Uint8Array(LOOKBACK_DAYS);
  private readonly cutoffDay: number;

  constructor(
    private readonly node: ModelNode,
    cutoff: number,
  ) {
    this.cutoffDay = localSlot(node.timezone, cutoff).day;
  }

  /** One bucket of history: its start, the solar available and the load (kW averages), its clear sky and cloud cover (NaN: unknown). */
  add(ts: number, sgaKw: number, houseKw: number, clear: number, cover: number): void {
    const { slot, weekend, day } = localSlot(this.node.timezone, ts);
    const back = this.cutoffDay - 1 - day;
    if (back < 0 || back >= LOOKBACK_DAYS) return;
    const i = back * SLOTS_PER_DAY + slot;
    this.seen[back] = 1;
    this.weekend[back] = weekend ? 1 : 0;
    if (Number.isFinite(houseKw)) this.house[i] = houseKw;
    if (Number.isFinite(sgaKw) && clear >= MIN_CLEAR_SKY) {
      this.solar[i] = sgaKw / clear;
      this.cover[i] = cover;
    }
  }

  /** The profile, the history's solar divided by the cloud's dimming (`climate` where the cover is unknown). */
  build(response: CloudResponse, climate: number): NodeProfile {
    const days = this.seen.reduce((a, b) => a + b, 0);
    const solarPerSky = new Float32Array(SLOTS_PER_DAY);
    const house = new Float32Array(2 * SLOTS_PER_DAY);
    const column = new Float64Array(LOOKBACK_DAYS);
    const comparable = (weekend: number) => {
      const out: number[] = [];
      for (let back = 0; back < LOOKBACK_DAYS && out.length < COMPARABLE_DAYS; back++) if (this.seen[back] && this.weekend[back] === weekend) out.push(back);
      return out.length >= MIN_COMPARABLE_DAYS ? out : null;
    };
    const all = Array.from({ length: LOOKBACK_DAYS }, (_, b) => b).filter((b) => this.seen[b]);
    const byType = [comparable(0) ?? all, comparable(1) ?? all];
    const overall: number[] = [];
    for (let s = 0; s < SLOTS_PER_DAY; s++) {
      for (let b = 0; b < LOOKBACK_DAYS; b++) {
        const i = b * SLOTS_PER_DAY + s;
        column[b] = this.solar[i] / (Number.isFinite(this.cover[i]) ? cloudTransmittance(this.cover[i], response) : climate);
      }
      solarPerSky[s] = median(column);
      if (Number.isFinite(solarPerSky[s])) overall.push(solarPerSky[s]);
      for (let w = 0; w < 2; w++) house[w * SLOTS_PER_DAY + s] = median(byType[w].map((b) => this.house[b * SLOTS_PER_DAY + s]));
    }
    // Slots whose sun was always too low to learn from (dawn and dusk) take the panels' typical response.
    const typical = median(overall);
    for (let s = 0; s < SLOTS_PER_DAY; s++) if (!Number.isFinite(solarPerSky[s])) solarPerSky[s] = typical;
    return { solarPerSky, house, days };
  }
}

/** Candidate depths and shapes of the cloud response: a coarse grid is enough for a forecast. */
const DEPTHS = [0.5, 0.6, 0.7, 0.8, 0.9];
const SHAPES = [1, 1.5, 2, 2.5, 3, 3.5];
/** Node-slots a fit looks at, at most: a sample of a large VPP says as much as all of it. */
const FIT_SAMPLES = 20_000;

/**
 * Learns how clouds dim the panels from history: the response under which each home's
 * cloud-corrected solar in a slot of the day varies least from day to day (the spread of its
 * logarithm), over the slots seen under different covers on two days or more. Kasten and Czeplak's
 * relation while there is too little to learn from.
 */
export function fitCloudResponse(builders: readonly ProfileBuilder[]): CloudResponse {
  const groups: { solar: number[]; cover: number[] }[] = [];
  outer: for (const b of builders)
    for (let s = 0; s < SLOTS_PER_DAY; s++) {
      const solar: number[] = [];
      const cover: number[] = [];
      for (let d = 0; d < LOOKBACK_DAYS; d++) {
        const i = d * SLOTS_PER_DAY + s;
        if (b.solar[i] > 0 && Number.isFinite(b.cover[i])) {
          solar.push(Math.log(b.solar[i]));
          cover.push(b.cover[i]);
        }
      }
      if (solar.length >= 2 && Math.max(...cover) - Math.min(...cover) > 0.1) groups.push({ solar, cover });
      if (groups.length >= FIT_SAMPLES) break outer;
    }
  if (groups.length < 50) return KASTEN_CZEPLAK;
  let best = KASTEN_CZEPLAK;
  let bestSpread = Number.POSITIVE_INFINITY;
  for (const depth of DEPTHS)
    for (const shape of SHAPES) {
      let spread = 0;
      for (const g of groups) {
        let sum = 0;
        let sq = 0;
        for (let j = 0; j < g.solar.length; j++) {
          const v = g.solar[j] - Math.log(1 - depth * g.cover[j] ** shape);
          sum += v;
          sq += v * v;
        }
        spread += sq - (sum * sum) / g.solar.length;
      }
      if (spread < bestSpread) {
        bestSpread = spread;
        best = { depth, shape };
      }
    }
  return best;
}

/**
 * What a home with no history, in a VPP of none, is expected to do: a flat 0.6 kW load (about
 * 5,300 kWh a year, the AER's benchmark for a two-person household) and panels giving 80 % of their
 * rating under a clear sky (a typical performance ratio).
 */
const PRIOR_HOUSE_KW = 0.6;
const PRIOR_SOLAR_PER_KW = 0.8;

/** Expected solar and load of the nodes at each 5-minute step of a forecast, kW. */
export interface ExpectedPower {
  solarKw(node: number, step: number): number;
  houseKw(node: number, step: number): number;
}

/** Cloud cover over postcodes at an instant (NaN where the console has no weather for it). */
export type CloudAt = (postcode: string, ts: number) => number;

/**
 * The expected power of `nodes` (with their profiles, in the same order) at `count` steps from
 * `from`: solar = the slot's learnt response × clear sky × the cloud forecast's transmittance
 * (`climate` standing in where the forecast does not reach), within the inverter; load = the slot's
 * median on comparable days. A node with no history takes the others' mean (its solar per kW of its panels).
 */
export function expectedPower(
  nodes: readonly ModelNode[],
  profiles: readonly NodeProfile[],
  from: number,
  count: number,
  cloudAt: CloudAt,
  climate: (postcode: string) => number,
  response: CloudResponse,
): ExpectedPower {
  const perKw = meanProfile(
    nodes.filter((_, i) => profiles[i].days > 0 && nodes[i].solarKw > 0),
    profiles.filter((p, i) => p.days > 0 && nodes[i].solarKw > 0),
  );
  const used = profiles.map((p, i) => (p.days > 0 ? p : { ...perKw, solarPerSky: perKw.solarPerSky.map((v) => v * nodes[i].solarKw) }));
  const clocks = new Map<string, { slot: Uint16Array; weekend: Uint8Array }>();
  const skies = new Map<string, Float32Array>();
  const clockOf: { slot: Uint16Array; weekend: Uint8Array }[] = [];
  const skyOf: Float32Array[] = [];
  for (const n of nodes) {
    let clock = clocks.get(n.timezone);
    if (!clock) {
      clock = { slot: new Uint16Array(count), weekend: new Uint8Array(count) };
      for (let k = 0; k < count; k++) {
        const s = localSlot(n.timezone, from + k * SLOT_S);
        clock.slot[k] = s.slot;
        clock.weekend[k] = s.weekend ? 1 : 0;
      }
      clocks.set(n.timezone, clock);
    }
    clockOf.push(clock);
    const key = `${n.postcode}|${Math.round(n.lat * 10)}|${Math.round(n.lng * 10)}`;
    let sky = skies.get(key);
    if (!sky) {
      sky = new Float32Array(count);
      for (let k = 0; k < count; k++) {
        const mid = from + k * SLOT_S + SLOT_S / 2;
        const cover = cloudAt(n.postcode, mid);
        sky[k] = clearSky(n.lat, n.lng, mid) * (Number.isFinite(cover) ? cloudTransmittance(cover, response) : climate(n.postcode));
      }
      skies.set(key, sky);
    }
    skyOf.push(sky);
  }
  return {
    solarKw: (i, k) => {
      const v = used[i].solarPerSky[clockOf[i].slot[k]] * skyOf[i][k];
      return Number.isFinite(v) ? Math.max(0, Math.min(nodes[i].inverterKw, v)) : 0;
    },
    houseKw: (i, k) => {
      const v = used[i].house[clockOf[i].weekend[k] * SLOTS_PER_DAY + clockOf[i].slot[k]];
      return Number.isFinite(v) ? Math.max(0, v) : 0;
    },
  };
}

/** The slot-by-slot mean of homes' profiles, solar per kW of panels: what a new home is expected to do (the prior, with none). */
function meanProfile(nodes: readonly ModelNode[], profiles: readonly NodeProfile[]): NodeProfile {
  const solarPerSky = new Float32Array(SLOTS_PER_DAY);
  const house = new Float32Array(2 * SLOTS_PER_DAY);
  const mean = (pick: (p: NodeProfile, i: number) => number) => {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < profiles.length; i++) {
      const v = pick(profiles[i], i);
      if (Number.isFinite(v)) {
        sum += v;
        n++;
      }
    }
    return n ? sum / n : Number.NaN;
  };
  const known = profiles.length > 0;
  for (let s = 0; s < SLOTS_PER_DAY; s++) solarPerSky[s] = known ? mean((p, i) => p.solarPerSky[s] / nodes[i].solarKw) : PRIOR_SOLAR_PER_KW;
  for (let s = 0; s < 2 * SLOTS_PER_DAY; s++) house[s] = known ? mean((p) => p.house[s]) : PRIOR_HOUSE_KW;
  return { solarPerSky, house, days: 0 };
}
