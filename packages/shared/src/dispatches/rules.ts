import { localBucketStart, startOfPeriod } from '../time.ts';

/**
 * The dispatch rules of spec 3 §4.1, §5 and §9 that the New Dispatch modal and the server both apply.
 */

/** Start and end times move in 5-minute steps. */
export const DISPATCH_TIME_STEP_S = 300;
/** Dragging on the prediction graph snaps to 15 minutes. */
export const DISPATCH_BRUSH_SNAP_S = 900;
export const DISPATCH_DEFAULT_DURATION_S = 14_400;
/** The default start is this far ahead, rounded down to the hour. */
export const DISPATCH_DEFAULT_LEAD_S = 4 * 3600;
export const DISPATCH_POWER_STEP_KW = 0.1;
/** How far ahead a prediction may be asked: the weather forecast and the nodes' state say little beyond it. */
export const PREDICTION_HORIZON_S = 7 * 86_400;
/** Where a dispatch's prediction starts (the hour before the hour of its start): past the horizon there is none yet. */
export const dispatchPredictionStart = (startTime: number) => startTime - (startTime % 3600) - 3600;
export const POWER_FACTOR_STEP = 0.05;
export const POWER_FACTOR_MIN = 0.7;
export const POWER_FACTOR_MAX = 1;
/** The power slider snaps to its ends and to 0 within this share of its range. */
export const SLIDER_SNAP_SHARE = 0.04;
export const DISPATCH_STRATEGIES = ['greedy', 'uniform'] as const;
export type DispatchStrategy = (typeof DISPATCH_STRATEGIES)[number];
export const LEAD_LAG = ['LEADING', 'LAGGING'] as const;
export type LeadLag = (typeof LEAD_LAG)[number];

/** Rounds away floating-point dust (0.30000000000000004) after snapping to a decimal step. */
const tidy = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The default dispatch start: four hours from now, rounded down to the hour of the account's zone
 * (in Adelaide an hour starts at half past the UTC hour), in epoch seconds.
 */
export function defaultDispatchStart(nowS: number, zone: string): number {
  const t = nowS + DISPATCH_DEFAULT_LEAD_S;
  return localBucketStart(t, 3600, startOfPeriod(t, 'day', zone));
}

/** Whether a time lies on a 5-minute step. */
export const onTimeStep = (ts: number) => Number.isInteger(ts) && ts % DISPATCH_TIME_STEP_S === 0;

/** A power snapped to the nearest 0.1 kW. */
export const snapPower = (kw: number) => tidy(Math.round(kw / DISPATCH_POWER_STEP_KW) * DISPATCH_POWER_STEP_KW);

/** Whether a power lies on a 0.1 kW step. */
export const onPowerStep = (kw: number) => Math.abs(snapPower(kw) - kw) < 1e-6;

/** The most a VPP can discharge, as the slider's minimum: toward zero onto a 0.1 kW step. */
export const powerMinStep = (kw: number) => tidy(Math.ceil(tidy(kw / DISPATCH_POWER_STEP_KW)) * DISPATCH_POWER_STEP_KW) || 0;
/** The most a VPP can charge, as the slider's maximum: toward zero onto a 0.1 kW step. */
export const powerMaxStep = (kw: number) => tidy(Math.floor(tidy(kw / DISPATCH_POWER_STEP_KW)) * DISPATCH_POWER_STEP_KW) || 0;

/** Whether a power factor is one the console offers: 0.7 to 1 in 0.05 steps (or within narrower inverter bounds). */
export function validPowerFactor(pf: number, min = POWER_FACTOR_MIN, max = POWER_FACTOR_MAX): boolean {
  const steps = pf / POWER_FACTOR_STEP;
  return pf >= min - 1e-9 && pf <= max + 1e-9 && Math.abs(steps - Math.round(steps)) < 1e-6;
}

/** Power factor may be set below 1 only when discharging, or for a power-factor-only dispatch (no real power available). */
export const powerFactorSettable = (realPowerP: number, realPowerAvailable: boolean) => realPowerP < 0 || !realPowerAvailable;

/**
 * The power slider's value after a move: within 4% of the range of either end it snaps to that end,
 * within 4% of the range of zero to 0, and otherwise to the 0.1 kW step.
 */
export function snapSlider(kw: number, min: number, max: number): number {
  const zone = (max - min) * SLIDER_SNAP_SHARE;
  if (max - kw <= zone) return max;
  if (kw - min <= zone) return min;
  if (min <= 0 && max >= 0 && Math.abs(kw) <= zone) return 0;
  return snapPower(kw);
}
