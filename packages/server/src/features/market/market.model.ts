import { DISPATCH_INTERVAL_S, MARKET_TIME_OFFSET_S, type NemRegion } from '@vpp/shared/market/rules';
import { LATEST_MARKET_SETTINGS, marketSettingsAt } from '@vpp/shared/market/settings';

// The market price model: a pure function of (seed, region, interval), so any server computes the
// same price for an interval; the store writes it once so that later changes to this code or to the
// market settings never move a price that settlement has used.

const DAY = 86_400;
/** 5-minute intervals in a market day. */
export const INTERVALS_PER_DAY = DAY / DISPATCH_INTERVAL_S;

/** The market day (00:00 to 24:00 UTC+10) an interval starting at `t` falls in, by its start (epoch seconds). */
export const marketDayStart = (t: number) => Math.floor((t + MARKET_TIME_OFFSET_S) / DAY) * DAY - MARKET_TIME_OFFSET_S;

/** The starts of the 5-minute intervals that begin in [start, end). */
export function intervalStarts(start: number, end: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(start / DISPATCH_INTERVAL_S) * DISPATCH_INTERVAL_S; t < end; t += DISPATCH_INTERVAL_S) out.push(t);
  return out;
}

/** A 32-bit hash of integers (murmur3's mixing): the model's only source of randomness. */
function hash(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}
/** A uniform number in [0, 1) from the hash of the arguments. */
const uniform = (...xs: number[]) => hash(...xs) / 2 ** 32;

/**
 * What shapes each region's prices: its typical level ($/MWh), how deep its midday solar soak cuts
 * (SA1 and VIC1 the deepest, with the most rooftop solar per load), its evening peak, and how
 * often a day has a price spike.
 */
interface RegionShape {
  code: number;
  level: number;
  soak: number;
  evening: number;
  spikeDays: number;
}
const SHAPES: Record<NemRegion, RegionShape> = {
  NSW1: { code: 1, level: 105, soak: 0.85, evening: 1.1, spikeDays: 0.02 },
  QLD1: { code: 2, level: 95, soak: 0.95, evening: 1.2, spikeDays: 0.025 },
  VIC1: { code: 3, level: 90, soak: 1.35, evening: 1.0, spikeDays: 0.02 },
  SA1: { code: 4, level: 110, soak: 1.6, evening: 1.3, spikeDays: 0.035 },
  TAS1: { code: 5, level: 80, soak: 0.45, evening: 0.6, spikeDays: 0.005 },
};

const bump = (hour: number, centre: number, width: number) => Math.exp(-(((hour - centre) / width) ** 2) / 2);

/** A smooth random walk over the day: knots every 30 minutes, interpolated between. */
function wander(seed: number, code: number, day: number, minute: number): number {
  const knot = Math.floor(minute / 30);
  const f = (minute % 30) / 30;
  const a = uniform(seed, code, day, knot, 11) - 0.5;
  const b = uniform(seed, code, day, knot + 1, 11) - 0.5;
  return a + (b - a) * (3 * f * f - 2 * f * f * f);
}

/** The model's price of an interval before rounding and clamping: its smooth part and its spike (null on most intervals). */
interface PriceParts {
  base: number;
  spike: number | null;
  floor: number;
  cap: number;
}

function priceParts(seed: number, region: NemRegion, start: number): PriceParts {
  const s = SHAPES[region];
  const settings = marketSettingsAt(start) ?? LATEST_MARKET_SETTINGS;
  const cap = settings.marketPriceCap;
  const local = start + MARKET_TIME_OFFSET_S;
  const day = Math.floor(local / DAY);
  const minute = Math.floor((local - day * DAY) / 60) + 2.5;
  const hour = minute / 60;
  // 1 January 1970 was a Thursday: day 2 is a Saturday.
  const weekday = (day + 4) % 7;
  const weekend = weekday === 0 || weekday === 6;

  const level = s.level * (0.75 + 0.5 * uniform(seed, s.code, day, 1)) * (weekend ? 0.8 : 1);
  const sunny = 0.4 + 0.6 * uniform(seed, s.code, day, 2);
  let price = level * (0.75 + 0.15 * bump(hour, 3.5, 2.5));
  price += level * 0.35 * bump(hour, 7.5, 1.1) * (weekend ? 0.5 : 1);
  price += level * s.evening * bump(hour, 18.6, 1.4) * (weekend ? 0.8 : 1);
  price -= level * s.soak * sunny * 1.15 * bump(hour, 12.8, 2.1);
  price += level * 0.25 * wander(seed, s.code, day, minute);
  price += level * 0.06 * (uniform(seed, s.code, start, 3) - 0.5);

  // A spike day: one burst of a few intervals in the evening ramp, rising toward the cap.
  let spike: number | null = null;
  if (uniform(seed, s.code, day, 4) < s.spikeDays) {
    const first = 16 * 12 + Math.floor(uniform(seed, s.code, day, 5) * 36);
    const length = 1 + Math.floor(uniform(seed, s.code, day, 6) * 6);
    const slot = Math.floor((minute - 2.5) / 5);
    if (slot >= first && slot < first + length) {
      const height = 0.25 + 0.75 * uniform(seed, s.code, day, 7);
      const shape = 1 - Math.abs(slot - first - (length - 1) / 2) / length;
      if (cap * height * shape > price) spike = cap * height * shape;
    }
  }
  return { base: price, spike, floor: settings.marketPriceFloor, cap };
}

const clampRound = (v: number, p: PriceParts) => Math.round(Math.min(p.cap, Math.max(p.floor, v)) * 100) / 100;

/**
 * The model's price ($/MWh, 2 decimals) of the 5-minute interval starting at `start` (epoch seconds,
 * UTC) in a region, within the floor and cap of the interval's financial year (marketSettingsAt): a daily shape in market time with a low or negative
 * midday, a morning and a larger evening peak, weekends cheaper, day-to-day level and sunniness,
 * noise, and on a few days an evening spike toward the cap.
 */
export function modelPrice(seed: number, region: NemRegion, start: number): number {
  const p = priceParts(seed, region, start);
  return clampRound(p.spike ?? p.base, p);
}

/** The model runs its forecast every 5 minutes: a run at each interval boundary. */
export const MODEL_RUN_S = DISPATCH_INTERVAL_S;

/**
 * The standard deviation of the model's forecast error, as a share of the region's typical price
 * level, at a horizon of `hours`: 4 % at the start of the interval, growing with the square root of
 * the horizon to 34 % at 40 hours (the end of PREDISPATCH's reach) and no further.
 */
export const forecastSigma = (hours: number) => 0.04 + 0.3 * Math.sqrt(Math.min(40, Math.max(0, hours)) / 40);

/**
 * The chance that a run `hours` ahead sees a spike coming: 1 at the interval itself, half at about
 * 30 minutes, under 1 in 10 two hours ahead. A missed spike is forecast at the smooth price.
 */
export const spikeSeen = (hours: number) => Math.exp(-Math.max(0, hours) / 0.75);

/** A standard normal number from the hash of the arguments (Box-Muller on two uniforms). */
function normal(...xs: number[]): number {
  const u = Math.max(uniform(...xs, 21), 1e-12);
  const v = uniform(...xs, 22);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * The model's forecast ($/MWh, 2 decimals) of the interval starting at `start`, by its run issued at
 * `issuedAt` (a 5-minute boundary at or before the start): the actual model price (`modelPrice`) with
 * an error whose spread grows with the horizon (`forecastSigma`; one part shared by the run's hour,
 * so a run is wrong in runs, one part of the interval's own), and a spike seen only with the chance
 * `spikeSeen` (the same for the whole spike within a run). Deterministic from the seed: a test or a
 * bench computes the same forecast as the server.
 */
export function modelForecast(seed: number, region: NemRegion, start: number, issuedAt: number): number {
  const s = SHAPES[region];
  const p = priceParts(seed, region, start);
  const hours = Math.max(0, start - issuedAt) / 3600;
  const run = Math.floor(issuedAt / MODEL_RUN_S);
  const z = 0.6 * normal(seed, s.code, run, Math.floor(start / 3600), 31) + 0.8 * normal(seed, s.code, run, start, 32);
  const error = forecastSigma(hours) * s.level * z;
  const day = Math.floor((start + MARKET_TIME_OFFSET_S) / DAY);
  const seen = p.spike !== null && uniform(seed, s.code, run, day, 33) < spikeSeen(hours);
  return clampRound((seen ? (p.spike as number) : p.base) + error, p);
}
