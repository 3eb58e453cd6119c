import type { DispatchStrategy } from '@vpp/shared/dispatches/rules';
import type { ExpectedPower } from '../../forecast/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY as ONE_WAY_EFFICIENCY } from '../../forecast/index.ts';
import { type ForecastNode, type ForecastWindow, forecastVpp, type PowerInterval, STEP_S, type VppForecast } from '../events/index.ts';

// The dispatch engine's arithmetic, with no database: how a VPP's request is shared among its
// batteries (the same allocation serves the constraints, the adjusted prediction and the orders the
// engine sends), applied to the event kernel's forecast of a VPP's day for the prediction graph.

export { type ForecastNode, forecastSteps, type PowerInterval, STEP_S } from '../events/index.ts';
/** Share of each battery's usable energy kept back: a dispatch never empties a home's backup. */
export const RESERVE_SHARE = 0.1;

/** A battery as the allocation sees it, at the dispatch's start. */
export interface AllocNode {
  id: number;
  /** The battery's power limit, kW (the same for charge and discharge). */
  maxKw: number;
  usableKwh: number;
  /** Energy kept back from discharge, kWh. */
  reserveKwh: number;
  /** Stored energy at the start, kWh. */
  socKwh: number;
}

export interface AllocRequest {
  start: number;
  /** Seconds. */
  duration: number;
  /** kW for the whole VPP: positive charges, negative discharges, 0 locks the batteries out. */
  realPowerP: number;
}

export interface NodeAllocation {
  nodeId: number;
  /** The node's share of the request, kW. */
  shareKw: number;
  /** Consecutive orders covering the whole dispatch, ready for `battery_power` commands. */
  intervals: PowerInterval[];
  /** Energy the node moves at the meter, kWh (positive charged). */
  energyKwh: number;
}

export interface Allocation {
  nodes: NodeAllocation[];
  /** At each 5-minute step: what the nodes give together and what is left of the request (kW, both signed like the request). */
  steps: { start: number; end: number; allocatedKw: number; unallocatedKw: number }[];
  /** Energy of the request that no node gives, kWh (signed like the request). */
  unallocatedKwh: number;
}

/** Rounds a power toward zero to the watt: an order never asks more than the energy allows. */
// The nanowatt slack absorbs floating-point dust (1.9 arriving as 1.8999999999999997).
const watts = (kw: number) => Math.trunc(kw * 1000 + 1e-9) / 1000 || 0;

/** Energy a battery can deliver (discharge < 0) or absorb (charge > 0) at its meter, kWh. */
export function availableEnergyKwh(n: AllocNode, direction: number): number {
  if (direction < 0) return Math.max(0, n.socKwh - n.reserveKwh) * ONE_WAY_EFFICIENCY;
  return Math.max(0, n.usableKwh - n.socKwh) / ONE_WAY_EFFICIENCY;
}

/** The most a battery can give in one direction for the whole of `duration` seconds, kW (unsigned). */
export function sustainableKw(n: AllocNode, direction: number, duration: number): number {
  if (duration <= 0) return 0;
  return Math.min(n.maxKw, availableEnergyKwh(n, direction) / (duration / 3600));
}

/** The dispatch's 5-minute steps (the last one shorter when the duration is not a multiple of 5 minutes). */
function stepsOf(req: AllocRequest): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let t = req.start; t < req.start + req.duration; t += STEP_S) out.push({ start: t, end: Math.min(t + STEP_S, req.start + req.duration) });
  return out;
}

/** Joins consecutive intervals of the same power. */
function merge(intervals: PowerInterval[]): PowerInterval[] {
  const out: PowerInterval[] = [];
  for (const i of intervals) {
    const last = out[out.length - 1];
    if (last && last.kw === i.kw && last.end === i.start) last.end = i.end;
    else out.push({ ...i });
  }
  return out;
}

/**
 * Shares a VPP's request among its batteries. Each node's share is the request in proportion to its
 * power limit (a request beyond the nodes' summed limits leaves the excess unallocated).
 * Greedy: each node gives its share at full rate for as long as its energy above the reserve (or its
 * room, when charging) allows, a last partial step with what is left, then holds at 0 kW.
 * Uniform: each node gives the one power that lasts the whole duration, its share or less.
 * A lockout (0 kW) holds every battery at 0 kW for the duration.
 */
export function allocate(nodes: readonly AllocNode[], req: AllocRequest, strategy: DispatchStrategy): Allocation {
  const steps = stepsOf(req);
  const direction = Math.sign(req.realPowerP);
  const limit = nodes.reduce((a, n) => a + n.maxKw, 0);
  const wanted = Math.min(Math.abs(req.realPowerP), limit);
  const end = req.start + req.duration;
  const allocated = new Float64Array(steps.length);
  const out: NodeAllocation[] = [];
  for (const n of nodes) {
    const share = limit > 0 ? (wanted * n.maxKw) / limit : 0;
    let intervals: PowerInterval[];
    if (direction === 0 || share === 0) intervals = [{ start: req.start, end, kw: 0 }];
    else if (strategy === 'uniform')
      intervals = [{ start: req.start, end, kw: direction * watts(sustainableKw({ ...n, maxKw: share }, direction, req.duration)) }];
    else {
      let energy = availableEnergyKwh(n, direction);
      intervals = steps.map((s) => {
        const hours = (s.end - s.start) / 3600;
        const kw = watts(Math.min(share, energy / hours));
        energy = Math.max(0, energy - kw * hours);
        return { start: s.start, end: s.end, kw: direction * kw || 0 };
      });
    }
    let energyKwh = 0;
    for (const i of intervals) {
      energyKwh += (i.kw * (i.end - i.start)) / 3600;
      for (let k = Math.floor((i.start - req.start) / STEP_S); k < steps.length && steps[k].start < i.end; k++) allocated[k] += i.kw;
    }
    out.push({ nodeId: n.id, shareKw: direction * share || 0, intervals: merge(intervals), energyKwh });
  }
  let unallocatedKwh = 0;
  const stepSums = steps.map((s, k) => {
    const unallocatedKw = req.realPowerP - allocated[k];
    unallocatedKwh += (unallocatedKw * (s.end - s.start)) / 3600;
    return { ...s, allocatedKw: allocated[k], unallocatedKw };
  });
  return { nodes: out, steps: stepSums, unallocatedKwh };
}

export interface ForecastRequest extends ForecastWindow {
  /**
   * The dispatch applied in the adjusted prediction; `leftOut` are nodes a grid outage or another
   * organisation's event with precedence holds in its window (docs/precedence.md): they get no share
   * and go on as they would without it.
   */
  dispatch?: AllocRequest & { strategy: DispatchStrategy; leftOut?: ReadonlySet<number> };
}

export interface Forecast extends VppForecast {
  /** The allocation the adjusted prediction applied (from each node's predicted state at the dispatch's start). */
  allocation: Allocation | null;
}

/**
 * A VPP's day (the kernel's `forecastVpp`); the adjusted prediction shares the dispatch among the
 * batteries with `allocate`, from each one's forecast state at the dispatch's start, and applies it.
 */
export function forecast(nodes: readonly ForecastNode[], req: ForecastRequest, expected: ExpectedPower): Forecast {
  const dispatch = req.dispatch;
  let allocation: Allocation | null = null;
  const adjust = dispatch && {
    start: dispatch.start,
    orders: (socAtStart: Float64Array) => {
      const batteries = nodes.flatMap((n, i) =>
        n.usableKwh > 0 && n.batteryKw > 0 && !dispatch.leftOut?.has(n.id)
          ? [{ id: n.id, maxKw: n.batteryKw, usableKwh: n.usableKwh, reserveKwh: n.usableKwh * RESERVE_SHARE, socKwh: socAtStart[i] }]
          : [],
      );
      const a = allocate(batteries, dispatch, dispatch.strategy);
      allocation = a;
      return new Map(a.nodes.map((n) => [n.nodeId, n.intervals]));
    },
  };
  const { prediction, adjustedPrediction } = forecastVpp(nodes, req, expected, adjust);
  return { prediction, adjustedPrediction, allocation };
}
