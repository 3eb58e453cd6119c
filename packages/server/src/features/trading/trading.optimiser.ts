import loadHighs from 'highs';

/**
 * The trading optimiser: a VPP's batteries as one store of energy, planned over the next intervals
 * as a linear programme and solved by HiGHS (its WebAssembly build).
 *
 *   maximise  Σ_t  p_t·(d_t − c_t)·h/1000  −  k·(d_t + c_t)·h/1000
 *   subject to
 *     e_t = e_{t−1} + η·c_t·h − d_t·h/η             (energy in store, kWh; e_{−1} = the store now)
 *     floor ≤ e_t ≤ capacity                        (never below the customers' reserves or the policy's floor)
 *     0 ≤ c_t ≤ C_t,  0 ≤ d_t ≤ D_t                  (power at the meter, kW; 0 outside the policy's hours
 *                                                     and, for charge, the solar surplus when grid charging is off)
 *     Σ_{t in day j} d_t·h/η ≤ budget_j             (energy drawn from the store per market day: the cycle limit)
 *     c_t − d_t = f_t where an operator's event fixes the interval at f_t kW
 *
 * with p_t the forecast price ($/MWh), h the interval in hours, η the one-way efficiency and k the
 * degradation cost ($/MWh of throughput: energy charged plus energy discharged, at the meter).
 * Charging and discharging in the same interval is never worth its losses unless prices fall below
 * about −k·(1+η²)/(1−η²) (−370 $/MWh at k = 20, η = 0.95); the plan nets the two, so an interval has
 * one power. The energy left at the end of the horizon is valued at nothing: the plan is re-made every
 * 5 minutes, so only its first hours are ever acted on.
 */

export interface PlanProblem {
  /** Start of the first interval, epoch seconds. */
  start: number;
  /** Interval length, seconds. */
  stepS: number;
  /** Forecast price of each interval, $/MWh. */
  prices: readonly number[];
  /** The most the VPP may discharge in each interval, kW at the meter (≥ 0). */
  maxDischargeKw: readonly number[];
  /** The most it may charge in each interval, kW at the meter (≥ 0). */
  maxChargeKw: readonly number[];
  /** Intervals held by another event: the VPP's power there is fixed (kW, positive charging). */
  fixedKw?: readonly (number | null)[];
  capacityKwh: number;
  storedKwh: number;
  /** The least energy the plan may leave in the store, kWh. */
  floorKwh: number;
  /** One-way efficiency of charge and of discharge. */
  efficiency: number;
  /** $/MWh of throughput. */
  degradationPerMWh: number;
  /** Energy that may be drawn from the store in each market day of the horizon, kWh, in order; `dayOf` maps an interval to its index here. */
  dischargeBudgetKwh: readonly number[];
  dayOf: (intervalStart: number) => number;
}

export interface PlannedInterval {
  start: number;
  /** kW at the meter, positive charging, negative discharging. */
  kw: number;
  price: number;
  /** Energy in store at the end of the interval, kWh. */
  storedKwh: number;
  /** Expected revenue of the interval at its forecast price less degradation, $. */
  revenue: number;
}

export interface Plan {
  intervals: PlannedInterval[];
  expectedRevenue: number;
  /** Energy charged plus discharged at the meter, kWh. */
  throughputKwh: number;
}

/** Why a plan could not be made: an infeasible problem or a solver failure. */
export class PlanError extends Error {}

let solver: ReturnType<typeof loadHighs> | undefined;
const highs = () => {
  solver ??= loadHighs();
  return solver;
};

/**
 * The problem as HiGHS' sparse model: columns c_t, d_t, e_t at 3t, 3t+1, 3t+2; rows of the balance of
 * each interval, then the held intervals, then one cycle row per market day (compressed by row).
 */
export function modelOf(p: PlanProblem, inf: number) {
  const n = p.prices.length;
  const h = p.stepS / 3600;
  const eta = p.efficiency;
  const colCost: number[] = [];
  const colLower: number[] = [];
  const colUpper: number[] = [];
  const rowLower: number[] = [];
  const rowUpper: number[] = [];
  const starts: number[] = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const row = (cols: [number, number][], lower: number, upper: number) => {
    for (const [c, v] of cols.sort((x, y) => x[0] - y[0])) {
      indices.push(c);
      values.push(v);
    }
    starts.push(indices.length);
    rowLower.push(lower);
    rowUpper.push(upper);
  };
  const days = new Map<number, [number, number][]>();
  for (let t = 0; t < n; t++) {
    const price = p.prices[t];
    if (!Number.isFinite(price)) throw new PlanError(`The price of interval ${t} is not a number.`);
    const sell = (price * h) / 1000;
    const wear = (p.degradationPerMWh * h) / 1000;
    const fixed = p.fixedKw?.[t];
    const dMax = fixed != null ? Math.max(p.maxDischargeKw[t], -fixed, 0) : Math.max(0, p.maxDischargeKw[t]);
    const cMax = fixed != null ? Math.max(p.maxChargeKw[t], fixed, 0) : Math.max(0, p.maxChargeKw[t]);
    colCost.push(-sell - wear, sell - wear, 0);
    colLower.push(0, 0, Math.min(p.floorKwh, p.capacityKwh));
    colUpper.push(cMax, dMax, p.capacityKwh);
    const c = 3 * t;
    // e_t − e_{t−1} − η·h·c_t + (h/η)·d_t = 0, with the store now on the right-hand side of the first.
    const balance: [number, number][] = [
      [c, -eta * h],
      [c + 1, h / eta],
      [c + 2, 1],
    ];
    if (t > 0) balance.push([c - 1, -1]);
    const rhs = t === 0 ? p.storedKwh : 0;
    row(balance, rhs, rhs);
    if (fixed != null)
      row(
        [
          [c, 1],
          [c + 1, -1],
        ],
        fixed,
        fixed,
      );
    const day = p.dayOf(p.start + t * p.stepS);
    const list = days.get(day) ?? [];
    list.push([c + 1, h / eta]);
    days.set(day, list);
  }
  for (const [day, cols] of days) row(cols, -inf, Math.max(0, p.dischargeBudgetKwh[day] ?? 0));
  return {
    numCols: 3 * n,
    numRows: rowLower.length,
    colCost,
    colLower,
    colUpper,
    rowLower,
    rowUpper,
    matrix: { format: 'csr' as const, numRows: rowLower.length, numCols: 3 * n, starts, indices, values },
  };
}

/**
 * The plan of a VPP's store for the problem's intervals. A store already below its floor is let
 * back up to it (the floor binds from where the store is), never drawn further down.
 */
export async function plan(problem: PlanProblem): Promise<Plan> {
  const n = problem.prices.length;
  if (!n) return { intervals: [], expectedRevenue: 0, throughputKwh: 0 };
  for (const list of [problem.maxChargeKw, problem.maxDischargeKw]) if (list.length !== n) throw new PlanError('Every interval needs its power limits.');
  const floor = Math.min(problem.floorKwh, problem.storedKwh);
  const solver = await highs();
  const data = modelOf({ ...problem, floorKwh: floor }, solver.infinity);
  const x = solver.withModel({ ...data, sense: solver.constants.objectiveSense.maximize }, (model) => {
    model.options.set({ output_flag: false, time_limit: 20 });
    model.run();
    if (model.getModelStatus() !== solver.constants.modelStatus.optimal) throw new PlanError(`The solver found no plan (status ${model.getModelStatus()}).`);
    return model.getSolution().colValue;
  });
  const h = problem.stepS / 3600;
  const intervals: PlannedInterval[] = [];
  let throughput = 0;
  let revenue = 0;
  for (let t = 0; t < n; t++) {
    const c = x[3 * t];
    const d = x[3 * t + 1];
    const kw = Math.round((c - d) * 1000) / 1000 || 0;
    const r = (problem.prices[t] * (d - c) * h) / 1000 - (problem.degradationPerMWh * (d + c) * h) / 1000;
    throughput += (c + d) * h;
    revenue += r;
    intervals.push({ start: problem.start + t * problem.stepS, kw, price: problem.prices[t], storedKwh: x[3 * t + 2], revenue: r });
  }
  return { intervals, expectedRevenue: revenue, throughputKwh: throughput };
}
