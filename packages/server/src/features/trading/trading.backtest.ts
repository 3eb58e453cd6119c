import { TRADING_HORIZON_S, TRADING_STEP_S } from '@vpp/shared/trading/schemas';
import { runInWorker } from '../../platform/run-in-worker.ts';
import { plan } from './trading.optimiser.ts';

/**
 * The backtest of a trading policy (issue 35): a period of actual prices replayed against the store
 * of a VPP, three ways:
 *  - the optimiser, re-planning every `replanS` against the price forecasts as they were issued at
 *    that time (never the actual prices), acting on its plan until the next re-plan;
 *  - "price threshold": discharge at full power in any interval whose price is at or above
 *    `dischargeAbove`, charge at full power at or below `chargeBelow` (it reacts to the interval's
 *    own price, which favours it: it knows what the optimiser must forecast);
 *  - "evening window": charge evenly from 10:00 to 15:00 market time, discharge evenly from 17:00 to
 *    21:00, every day.
 * All three run the same store (one-way efficiency, the floor, the capacity, the power, the cycle limit
 * per market day) and are paid the actual price less the degradation cost of their throughput.
 */

export interface BacktestStore {
  capacityKwh: number;
  /** kW at the meter, either way. */
  powerKw: number;
  floorKwh: number;
  storedKwh: number;
  efficiency: number;
  degradationPerMWh: number;
  maxCyclesPerDay: number;
}

export interface BacktestInput {
  store: BacktestStore;
  /** Start of the first interval, epoch seconds; `actual` holds one price per 5-minute interval from it. */
  start: number;
  actual: readonly number[];
  /** The forecast issued at `asOf` of the `count` intervals from `from`, $/MWh. */
  forecast: (asOf: number, from: number, count: number) => Promise<number[]>;
  replanS?: number;
  dischargeAbove?: number;
  chargeBelow?: number;
  /** Called after each plan with the share of the period done (0 to 1). */
  onProgress?: (fraction: number) => void;
}

export interface StrategyResult {
  name: string;
  /** $: actual price times energy at the meter, less degradation. */
  revenue: number;
  dischargedKwh: number;
  chargedKwh: number;
  /** Energy drawn from the store over its capacity. */
  cycles: number;
  /** The most cycles in any one market day. */
  maxDayCycles: number;
  minStoredKwh: number;
}

const MARKET_OFFSET_S = 10 * 3600;
const H = TRADING_STEP_S / 3600;
const marketDay = (t: number) => Math.floor((t + MARKET_OFFSET_S) / 86_400);
const marketHour = (t: number) => Math.floor(((t + MARKET_OFFSET_S) % 86_400) / 3600);

/** The store's physics and the books of one strategy. */
class Runner {
  stored: number;
  revenue = 0;
  discharged = 0;
  charged = 0;
  drawn = 0;
  day = Number.NaN;
  drawnToday = 0;
  maxDayDrawn = 0;
  minStored: number;
  constructor(
    readonly name: string,
    readonly s: BacktestStore,
  ) {
    this.stored = s.storedKwh;
    this.minStored = s.storedKwh;
  }

  /** Acts `kw` (positive charging) for one interval starting at `t` at the actual `price`, within the store's limits. */
  step(t: number, kw: number, price: number): void {
    const s = this.s;
    const day = marketDay(t);
    if (day !== this.day) {
      this.day = day;
      this.drawnToday = 0;
    }
    let p = Math.max(-s.powerKw, Math.min(s.powerKw, kw));
    if (p > 0) p = Math.min(p, Math.max(0, s.capacityKwh - this.stored) / s.efficiency / H);
    if (p < 0) {
      const budget = Math.max(0, s.maxCyclesPerDay * s.capacityKwh - this.drawnToday);
      const draw = Math.min(Math.max(0, this.stored - Math.min(s.floorKwh, this.stored)), budget);
      p = -Math.min(-p, (draw * s.efficiency) / H);
    }
    const energy = p * H;
    if (p > 0) {
      this.stored += energy * s.efficiency;
      this.charged += energy;
    } else if (p < 0) {
      this.stored += energy / s.efficiency;
      this.discharged -= energy;
      this.drawn -= energy / s.efficiency;
      this.drawnToday -= energy / s.efficiency;
    }
    this.maxDayDrawn = Math.max(this.maxDayDrawn, this.drawnToday);
    this.minStored = Math.min(this.minStored, this.stored);
    this.revenue += (-energy * price) / 1000 - (Math.abs(energy) * s.degradationPerMWh) / 1000;
  }

  result(): StrategyResult {
    return {
      name: this.name,
      revenue: this.revenue,
      dischargedKwh: this.discharged,
      chargedKwh: this.charged,
      cycles: this.drawn / this.s.capacityKwh,
      maxDayCycles: this.maxDayDrawn / this.s.capacityKwh,
      minStoredKwh: this.minStored,
    };
  }
}

export interface BacktestResult {
  optimiser: StrategyResult;
  threshold: StrategyResult;
  evening: StrategyResult;
  /** The optimiser's revenue over the better naive rule's, less one (0.25 = 25 % more); null when that rule earned nothing. */
  gainOverBestNaive: number | null;
  plans: number;
}

export async function backtest(input: BacktestInput): Promise<BacktestResult> {
  const { store, start, actual } = input;
  const replan = Math.max(TRADING_STEP_S, input.replanS ?? 1800);
  const steps = TRADING_HORIZON_S / TRADING_STEP_S;
  const opt = new Runner('optimiser', store);
  const threshold = new Runner('price threshold', store);
  const evening = new Runner('evening window', store);
  const above = input.dischargeAbove ?? 300;
  const below = input.chargeBelow ?? 40;
  let planned: number[] = [];
  let plannedFrom = 0;
  let plans = 0;
  for (let i = 0; i < actual.length; i++) {
    const t = start + i * TRADING_STEP_S;
    if (i === 0 || (t - start) % replan === 0) {
      const prices = await input.forecast(t, t, steps);
      const budgetToday = Math.max(0, store.maxCyclesPerDay * store.capacityKwh - (opt.day === marketDay(t) ? opt.drawnToday : 0));
      const today = marketDay(t);
      const made = await plan({
        start: t,
        stepS: TRADING_STEP_S,
        prices,
        maxChargeKw: Array(steps).fill(store.powerKw),
        maxDischargeKw: Array(steps).fill(store.powerKw),
        capacityKwh: store.capacityKwh,
        storedKwh: opt.stored,
        floorKwh: store.floorKwh,
        efficiency: store.efficiency,
        degradationPerMWh: store.degradationPerMWh,
        dischargeBudgetKwh: [budgetToday, store.maxCyclesPerDay * store.capacityKwh],
        dayOf: (at) => Math.min(1, marketDay(at) - today),
      });
      planned = made.intervals.map((p) => p.kw);
      plannedFrom = i;
      plans++;
      input.onProgress?.(i / actual.length);
    }
    opt.step(t, planned[i - plannedFrom] ?? 0, actual[i]);
    threshold.step(t, actual[i] >= above ? -store.powerKw : actual[i] <= below ? store.powerKw : 0, actual[i]);
    const h = marketHour(t);
    const chargeKw = store.capacityKwh / store.efficiency / 5;
    const dischargeKw = ((store.capacityKwh - store.floorKwh) * store.efficiency) / 4;
    evening.step(t, h >= 10 && h < 15 ? chargeKw : h >= 17 && h < 21 ? -dischargeKw : 0, actual[i]);
  }
  const o = opt.result();
  const a = threshold.result();
  const b = evening.result();
  const best = Math.max(a.revenue, b.revenue);
  return { optimiser: o, threshold: a, evening: b, gainOverBestNaive: best > 0 ? o.revenue / best - 1 : null, plans };
}

/** A backtest's input with the forecasts fetched beforehand: `forecasts[k]` is the run issued at the k-th re-plan (start + k × replanS). */
export type PreparedBacktest = Omit<BacktestInput, 'forecast' | 'onProgress'> & { replanS: number; forecasts: number[][] };

/** The backtest's run in its worker thread (runInWorker calls it by name): the forecasts come from the prepared input. */
export function backtestTask(input: PreparedBacktest, progress: (fraction: number) => void): Promise<BacktestResult> {
  return backtest({
    ...input,
    forecast: async (asOf) => input.forecasts[Math.round((asOf - input.start) / input.replanS)] ?? [],
    onProgress: progress,
  });
}

/**
 * Runs a prepared backtest in a worker thread: HiGHS solves synchronously (its WebAssembly build),
 * hundreds of times for a month, so the server's event loop must never run them.
 */
export function backtestInWorker(input: PreparedBacktest, onProgress: (fraction: number) => void): Promise<BacktestResult> {
  return runInWorker<BacktestResult>({ module: import.meta.url, run: 'backtestTask' }, input, { name: 'The backtest', onProgress });
}
