import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { PredictionPoint } from '@vpp/shared/dispatches/schemas';
import { startOfPeriod } from '@vpp/shared/time';
import { type ExpectedPower, forecastPower, type ModelNode, BATTERY_ONE_WAY_EFFICIENCY as ONE_WAY_EFFICIENCY } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import type { NodeStateRow } from './events.repo.ts';

// The kernel's forecast of a VPP's window, for every kind of event: each reporting node's expected
// solar and household load (the console's forecast), its battery self-consuming within its limits,
// summed over the VPP. A kind that changes what the batteries do (a dispatch's allocation, an import
// limit's caps) gives the orders it would send from each node's forecast state at its start; its own
// rules stay in its area.

/** Events work in 5-minute steps: the engines' time step, and the telemetry's finest rollup. */
export const STEP_S = 300;

/** The zone of an account without one (as the alert digests assume). */
export const DEFAULT_TIME_ZONE = 'Australia/Sydney';

/** One order for a node: battery power (kW, positive charging) over [start, end). */
export interface PowerInterval {
  start: number;
  end: number;
  kw: number;
}

/**
 * A cap on a node's import from the grid (kW) over [start, end), as an import limit orders it: the
 * battery self-consumes, then charges less and discharges to hold the import to the cap (as the
 * devices' opModImpLimW does), within its power and stored energy.
 */
export interface ImportCap {
  start: number;
  end: number;
  importCapKw: number;
}

/** A node as the forecast steps it: its equipment and state now (its expected solar and load come from the console's forecast). */
export interface ForecastNode {
  id: number;
  solarKw: number;
  inverterKw: number;
  usableKwh: number;
  batteryKw: number;
  /** Stored energy at `from`, kWh. */
  socKwh: number;
}

/** The window a forecast covers. */
export interface ForecastWindow {
  /** When the nodes' state is known (a 5-minute boundary): the forecast runs from here. */
  from: number;
  /** The window shown: buckets of [dayStart, dayStart + 86400) at STEP_S (to `end` when given). */
  dayStart: number;
  end?: number;
}

/**
 * What a kind of event does to the batteries from `start`: given each node's forecast stored energy
 * then (in `nodes`' order), the orders it sends each node by id (a node without orders goes on
 * self-consuming).
 */
export interface ForecastAdjustment {
  start: number;
  orders(socAtStart: Float64Array): ReadonlyMap<number, readonly (PowerInterval | ImportCap)[]>;
}

/** A VPP's forecast: without the event, and with it when an adjustment was given. */
export interface VppForecast {
  prediction: Record<string, PredictionPoint>;
  adjustedPrediction: Record<string, PredictionPoint> | null;
}

/** The sums of one forecast pass, per step. */
interface Sums {
  solar: Float64Array;
  house: Float64Array;
  battery: Float64Array;
  meter: Float64Array;
  soc: Float64Array;
}

const sums = (n: number): Sums => ({
  solar: new Float64Array(n),
  house: new Float64Array(n),
  battery: new Float64Array(n),
  meter: new Float64Array(n),
  soc: new Float64Array(n),
});

/** The 5-minute steps a forecast runs, from `from` to the end of the window shown: what its expected power must cover. */
export function forecastSteps(req: ForecastWindow): number {
  return Math.max(0, Math.ceil(((req.end ?? req.dayStart + 86_400) - req.from) / STEP_S));
}

/**
 * A VPP's window: each node's expected solar and household load (`expected`, at the steps from
 * `from`), and each battery self-consuming from its state now within its power and energy limits;
 * with `adjust`, the same again from its start with the kind's orders applied. Steps of 5 minutes,
 * plain arithmetic per node and step, so a VPP of 10,000 nodes steps in tens of milliseconds.
 */
export function forecastVpp(nodes: readonly ForecastNode[], req: ForecastWindow, expected: ExpectedPower, adjust?: ForecastAdjustment): VppForecast {
  const dayEnd = req.end ?? req.dayStart + 86_400;
  const from = req.from;
  const count = forecastSteps(req);
  const times = Float64Array.from({ length: count }, (_, k) => from + k * STEP_S);

  const hours = STEP_S / 3600;
  const dStart = adjust ? Math.max(0, Math.ceil((adjust.start - from) / STEP_S)) : count;
  const socAtStart = new Float64Array(nodes.length);

  /** Steps one node over [k0, count), self-consuming unless `orders` hold its battery; adds into `out`. */
  const run = (n: ForecastNode, k0: number, soc0: number, out: Sums, orders: readonly (PowerInterval | ImportCap)[] | null, index: number) => {
    let soc = soc0;
    let o = 0;
    for (let k = k0; k < count; k++) {
      if (k === dStart) socAtStart[index] = soc;
      const t = times[k];
      const solar = expected.solarKw(index, k);
      const house = expected.houseKw(index, k);
      let battery = 0;
      if (n.usableKwh > 0 && n.batteryKw > 0) {
        let target = solar - house;
        let cap: number | null = null;
        if (orders) {
          while (o < orders.length && orders[o].end <= t) o++;
          const order = o < orders.length && orders[o].start <= t ? orders[o] : null;
          if (order) {
            if ('kw' in order) target = order.kw;
            else cap = order.importCapKw;
          }
        }
        const maxCharge = Math.min(n.batteryKw, Math.max(0, (n.usableKwh - soc) / hours / ONE_WAY_EFFICIENCY));
        const maxDischarge = Math.min(n.batteryKw, Math.max(0, (soc * ONE_WAY_EFFICIENCY) / hours));
        battery = Math.max(-maxDischarge, Math.min(maxCharge, target));
        if (cap !== null) {
          const over = house + battery - solar - cap;
          if (over > 0) battery = Math.max(battery - over, Math.min(battery, -maxDischarge));
        }
        soc = Math.min(n.usableKwh, Math.max(0, soc + (battery > 0 ? battery * ONE_WAY_EFFICIENCY : battery / ONE_WAY_EFFICIENCY) * hours));
      }
      out.solar[k] += solar;
      out.house[k] += house;
      out.battery[k] += battery;
      out.meter[k] += house + battery - solar;
      // Stored energy at the end of the step: the state the next bucket starts from.
      out.soc[k] += soc;
    }
    if (dStart >= count) socAtStart[index] = soc;
  };

  const base = sums(count);
  for (let i = 0; i < nodes.length; i++) run(nodes[i], 0, nodes[i].socKwh, base, null, i);

  let adjusted: Sums | null = null;
  if (adjust) {
    const orders = adjust.orders(socAtStart);
    adjusted = sums(count);
    for (const key of ['solar', 'house', 'battery', 'meter', 'soc'] as const) adjusted[key].set(base[key].subarray(0, dStart));
    for (let i = 0; i < nodes.length; i++) run(nodes[i], dStart, socAtStart[i], adjusted, orders.get(nodes[i].id) ?? null, i);
  }

  const usable = nodes.reduce((a, n) => a + (n.batteryKw > 0 ? n.usableKwh : 0), 0);
  const series = (s: Sums) => {
    const out: Record<string, PredictionPoint> = {};
    for (let t = req.dayStart - (req.dayStart % STEP_S); t < dayEnd; t += STEP_S) {
      const k = (t - from) / STEP_S;
      out[t] =
        k < 0 || k >= count
          ? EMPTY
          : {
              solarPower: r3(s.solar[k]),
              housePower: r3(s.house[k]),
              batteryPower: r3(s.battery[k]),
              meterPower: r3(s.meter[k]),
              remainingCharge: r3(s.soc[k]),
              soc: usable > 0 ? r3((s.soc[k] / usable) * 100) : null,
            };
    }
    return out;
  };
  return { prediction: series(base), adjustedPrediction: adjusted ? series(adjusted) : null };
}

/** The console's expected power of the nodes over the window, then the VPP's forecast of it (`forecastVpp`). */
export async function forecastWindow(
  ctx: AppContext,
  nodes: readonly (ForecastNode & ModelNode)[],
  req: ForecastWindow,
  adjust?: ForecastAdjustment,
): Promise<VppForecast> {
  return forecastVpp(nodes, req, await forecastPower(ctx, nodes, req.from, forecastSteps(req)), adjust);
}

/** A node's place and equipment as the console's forecast of its power models it (forecastPower). */
export function toModelNode(r: Pick<NodeStateRow, 'id' | 'lat' | 'lng' | 'postcode' | 'timezone' | 'solar_kw' | 'inverter_kw'>): ModelNode {
  return { id: r.id, lat: r.lat, lng: r.lng, postcode: r.postcode, timezone: r.timezone, solarKw: r.solar_kw, inverterKw: r.inverter_kw };
}

/** A reporting node as the forecast models it, from its state now. */
export function toForecastNode(r: NodeStateRow): ForecastNode & ModelNode {
  return {
    ...toModelNode(r),
    usableKwh: r.battery_usable_kwh,
    batteryKw: r.battery_kw,
    socKwh: Math.min(r.battery_usable_kwh, Math.max(0, r.remaining ?? 0)),
  };
}

/**
 * The spec's warning for a prediction of a day after today (in the caller's time zone); a caller who
 * sees market data is also told when the day is beyond the price forecast.
 */
export function predictionWarning(dayStart: number, now: number, zone: string, marketVisible: boolean, pricesAvailable = false): string | null {
  const tomorrow = startOfPeriod(startOfPeriod(now, 'day', zone) + 36 * 3600, 'day', zone);
  if (dayStart < tomorrow) return null;
  return marketVisible && !pricesAvailable ? DISPATCH_MESSAGES.futurePredictionsNoPrices : DISPATCH_MESSAGES.futurePredictions;
}

/** A bucket the forecast does not cover (before now): no value, never 0. */
const EMPTY: PredictionPoint = { solarPower: null, housePower: null, batteryPower: null, meterPower: null, remainingCharge: null, soc: null };

const r3 = (v: number) => Math.round(v * 1000) / 1000;
