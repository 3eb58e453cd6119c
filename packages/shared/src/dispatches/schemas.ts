import { z } from 'zod';
import { epochSeconds, queryInt } from '../api/inputs.ts';
import { powerstationPricesReply } from '../market/schemas.ts';
import { DISPATCH_MESSAGES } from './messages.ts';
import { DISPATCH_DEFAULT_DURATION_S, DISPATCH_STRATEGIES, LEAD_LAG, POWER_FACTOR_MAX, validPowerFactor } from './rules.ts';

/** The longest dispatch the calls accept: a week (the spec names no bound; nodes act within 24 h of a start). */
export const MAX_DISPATCH_DURATION_S = 7 * 86_400;
/** Real power a request may name, in kW: wider than any fleet, small enough to stay exact. */
export const MAX_REQUEST_KW = 10_000_000;

const blankIsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A decimal number in a query within [min, max]; an empty value is missing. */
function queryNumber(name: string, min: number, max: number) {
  const message = `${name} must be a number from ${min} to ${max}.`;
  return z.preprocess(blankIsMissing, z.coerce.number({ error: message }).finite(message).min(min, message).max(max, message));
}

const realPowerP = (name: string) => queryNumber(name, -MAX_REQUEST_KW, MAX_REQUEST_KW);
const powerFactor = z.preprocess(
  blankIsMissing,
  z.coerce.number({ error: DISPATCH_MESSAGES.powerFactorRange }).refine((pf) => validPowerFactor(pf), DISPATCH_MESSAGES.powerFactorRange),
);
const duration = (name: string) => queryInt(name, 1, MAX_DISPATCH_DURATION_S);

/** `GET /api/powerstations/{id}/constraints`: the dispatch being drawn up (duration in seconds, kW, power factor). */
export const constraintsQuery = z.object({
  duration: duration('duration').default(DISPATCH_DEFAULT_DURATION_S),
  realPowerP: realPowerP('realPowerP').default(0),
  powerFactor: powerFactor.default(POWER_FACTOR_MAX),
});

/** What a VPP can do now (spec 3 §3.2): kW bounds over the asked duration, power factor bounds and why not. */
export const constraintsSchema = z.object({
  /** The most the VPP can discharge for the whole duration (kW, negative or 0), on a 0.1 kW step. */
  realPowerPMin: z.number(),
  /** The most it can charge for the whole duration (kW, positive or 0). */
  realPowerPMax: z.number(),
  realPowerAvailable: z.boolean(),
  powerFactorMin: z.number(),
  powerFactorMax: z.number(),
  powerFactorAvailable: z.boolean(),
  /** The lead or lag choices the inverters offer (empty when power factor cannot be set). */
  powerFactorLeadLag: z.array(z.enum(LEAD_LAG)),
  /** Why the asked power or power factor cannot be dispatched; null when it can. */
  powerFactorConstraintMessage: z.string().nullable(),
  /** Nodes that count: commissioned, with a battery, reporting. */
  deploymentsAvailable: z.number(),
});
export type DispatchConstraints = z.infer<typeof constraintsSchema>;
export const constraintsReply = z.object({ status: z.literal('OK'), data: constraintsSchema });

/** `GET /api/powerstations/{id}/predictions`: the day from `start`, and optionally a dispatch to apply. */
export const predictionsQuery = z.object({
  start: epochSeconds('start'),
  dispatchStart: epochSeconds('dispatchStart').optional(),
  dispatchDuration: duration('dispatchDuration').optional(),
  dispatchRealPowerP: realPowerP('dispatchRealPowerP').optional(),
  strategy: z.enum(DISPATCH_STRATEGIES, { error: `strategy must be one of ${DISPATCH_STRATEGIES.join(', ')}.` }).optional(),
});

/** The VPP's summed power (kW, battery positive charging, meter positive importing) and stored energy at a time. */
export const predictionPointSchema = z.object({
  solarPower: z.number().nullable(),
  housePower: z.number().nullable(),
  batteryPower: z.number().nullable(),
  meterPower: z.number().nullable(),
  /** kWh stored in the VPP's batteries. */
  remainingCharge: z.number().nullable(),
  /** Percent of the VPP's usable battery energy. */
  soc: z.number().nullable(),
});
export type PredictionPoint = z.infer<typeof predictionPointSchema>;
const predictionSeries = z.record(z.string(), predictionPointSchema);

export const predictionsSchema = z.object({
  /** Bucket length of the series, seconds. */
  interval: z.number(),
  /** Keyed by bucket start (epoch seconds); every value of a bucket before now is null (the monitoring data shows those). */
  prediction: predictionSeries,
  /** The same with the dispatch applied through the engine's allocation; null when no dispatch is given. */
  adjustedPrediction: predictionSeries.nullable(),
  /** The spec's warning for a day after today; null for today. */
  warning: z.string().nullable(),
  deployments: z.number(),
  /**
   * The VPP's region prices over the day (market.rrp, step 1800 s), as `GET /powerstation/{id}/prices`
   * answers them; null for a caller who does not see market data, a VPP outside the NEM, or a day
   * beyond the price forecast.
   */
  market: powerstationPricesReply.shape.market,
});
export type DispatchPredictions = z.infer<typeof predictionsSchema>;
export const predictionsReply = z.object({ status: z.literal('OK'), data: predictionsSchema });
