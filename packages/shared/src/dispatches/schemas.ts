import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { bodyId, epochSeconds, MAX_EPOCH_S, pagingFields, queryInt } from '../api/inputs.ts';
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
  /** When the dispatch would start: the range then leaves out the nodes other events hold (docs/precedence.md). */
  startTime: epochSeconds('startTime').optional(),
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
  /** Nodes that count: commissioned, with a battery, reporting (and, with a start time, not held by an event with precedence). */
  deploymentsAvailable: z.number(),
  /** With a start time: why some nodes are left out or the dispatch would be refused (docs/precedence.md); null when nothing stands in the way. */
  conflictMessage: z.string().nullable(),
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

/**
 * How far the VPP's forecast was from what its homes then did (issue 33 §2), over the last day (the
 * 24 hours up to the latest local midnight of its homes' zones) at 5 minutes: the day-ahead forecast of each undisturbed home's net demand before its battery
 * (load less the solar available) against its measurement. Null figures: nothing to compare.
 */
export const forecastErrorSchema = z.object({
  start: z.number(),
  end: z.number(),
  intervals: z.number(),
  /** The VPP's homes together: median over intervals of |forecast − measured|, kW. */
  medianAbsoluteErrorKw: z.number().nullable(),
  /** The same as a share of the mean absolute measured net demand, percent. */
  relativeErrorPercent: z.number().nullable(),
  /** Home by home: median over homes and intervals of |forecast − measured|, kW, and as a share of each home's mean load, percent. */
  homeMedianAbsoluteErrorKw: z.number().nullable(),
  homeRelativeErrorPercent: z.number().nullable(),
});
export type ForecastError = z.infer<typeof forecastErrorSchema>;

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
  /** The forecast's measured error for this VPP (its reporting homes). */
  forecastError: forecastErrorSchema,
  /**
   * Issue 33 item 1 (an addition): with a dispatch given, what it is expected to deliver on the
   * settlement's basis, the change at the meters against the homes' own behaviour (kWh, signed like
   * the request, over the part of the dispatch in the day shown), the batteries' own average power
   * without it (kW), and the wrong-way warning; null without a dispatch or for a lockout.
   */
  delivery: z.object({ requestedKwh: z.number(), expectedKwh: z.number(), ownBatteryKw: z.number(), warning: z.string().nullable() }).nullable().optional(),
});
export type DispatchPredictions = z.infer<typeof predictionsSchema>;
export const predictionsReply = z.object({ status: z.literal('OK'), data: predictionsSchema });

/** The longest customer message title and text the app shows. */
export const DISPATCH_MESSAGE_LIMITS = { title: 100, text: 1000 } as const;

const durationMessage = `duration must be a whole number of seconds from 300 to ${MAX_DISPATCH_DURATION_S}.`;

/** What a new event of every kind (a dispatch, a RERT dispatch, a grid outage, a curtailment) is asked for: its VPP, its start and its duration. */
export const eventWindowBody = {
  powerstation: bodyId('powerstation'),
  startTime: z
    .number({ error: 'startTime must be epoch seconds.' })
    .int('startTime must be epoch seconds.')
    .min(0, 'startTime must be epoch seconds.')
    .max(MAX_EPOCH_S, 'startTime must be epoch seconds.'),
  duration: z.number({ error: durationMessage }).int(durationMessage).min(300, durationMessage).max(MAX_DISPATCH_DURATION_S, durationMessage),
};

/** `POST /dispatch` (spec 3 §7): the request; the rules of §4.1 and §5 are checked by the server against the VPP's constraints. */
export const createDispatchBody = z.object({
  ...eventWindowBody,
  realPowerP: z
    .number({ error: `realPowerP must be a number from -${MAX_REQUEST_KW} to ${MAX_REQUEST_KW}.` })
    .finite()
    .min(-MAX_REQUEST_KW, `realPowerP must be a number from -${MAX_REQUEST_KW} to ${MAX_REQUEST_KW}.`)
    .max(MAX_REQUEST_KW, `realPowerP must be a number from -${MAX_REQUEST_KW} to ${MAX_REQUEST_KW}.`),
  powerFactor: z
    .number({ error: DISPATCH_MESSAGES.powerFactorRange })
    .refine((pf) => validPowerFactor(pf), DISPATCH_MESSAGES.powerFactorRange)
    .nullable()
    .optional(),
  powerFactorLeadLag: z
    .enum(LEAD_LAG, { error: `powerFactorLeadLag must be one of ${LEAD_LAG.join(', ')}.` })
    .nullable()
    .optional(),
  customerMessage: z
    .string({ error: 'customerMessage must be text.' })
    .trim()
    .max(DISPATCH_MESSAGE_LIMITS.text, `customerMessage must be at most ${DISPATCH_MESSAGE_LIMITS.text} characters.`)
    .nullable()
    .optional(),
  messageTitle: z
    .string({ error: 'messageTitle must be text.' })
    .trim()
    .max(DISPATCH_MESSAGE_LIMITS.title, `messageTitle must be at most ${DISPATCH_MESSAGE_LIMITS.title} characters.`)
    .nullable()
    .optional(),
  strategy: z
    .enum(DISPATCH_STRATEGIES, { error: `strategy must be one of ${DISPATCH_STRATEGIES.join(', ')}.` })
    .nullable()
    .optional(),
});
export type CreateDispatchBody = z.infer<typeof createDispatchBody>;
export const createDispatchReply = okReply(z.object({ id: z.number() }));

export const DISPATCH_STATES = ['UPCOMING', 'INPROGRESS', 'COMPLETED'] as const;

/** A dispatch's request as it was made (spec 3 §3.1). */
export const dispatchRequestSchema = z.object({
  startTime: z.number(),
  duration: z.number(),
  realPowerP: z.number(),
  powerFactor: z.number().nullable(),
  powerFactorLeadLag: z.enum(LEAD_LAG).nullable(),
  strategy: z.enum(DISPATCH_STRATEGIES),
  /** The nodes given a share of it. */
  deploymentsRequested: z.number(),
});

/** What the nodes deliver (kW and kWh, signed like the request). */
export const dispatchResponseTotalsSchema = z.object({
  realPowerP: z.number(),
  rejectedRealPowerP: z.number(),
  deliveredKwh: z.number(),
  deploymentsResponded: z.number(),
});

/** One line of the audit: who created, changed or cancelled the event, and when. */
export const eventAuditSchema = z.object({
  action: z.enum(['CREATED', 'CHANGED', 'CANCELLED']),
  at: z.number(),
  /** The user's name; 'Unknown' for a user no longer in the organisation. */
  by: z.string(),
  detail: z.string().nullable(),
});

export const dispatchSummarySchema = z.object({
  id: z.number(),
  state: z.enum(DISPATCH_STATES),
  /** Normal dispatches carry no reason (RERT and outages do). */
  reason: z.string().nullable(),
  triggered: z.boolean(),
  /** The creator's name; 'Unknown' when the user is not found. */
  createdBy: z.string(),
  createdAt: z.number(),
  cancelledAt: z.number().nullable(),
  powerstation: z.object({ id: z.number(), name: z.string() }),
  request: dispatchRequestSchema,
  /** The message the customers' app shows; null for lockouts and power-factor-only dispatches. */
  customerMessage: z.object({ title: z.string(), text: z.string() }).nullable(),
});
export type DispatchSummary = z.infer<typeof dispatchSummarySchema>;

export const dispatchDetailSchema = dispatchSummarySchema.extend({
  currentResponse: dispatchResponseTotalsSchema,
  audit: z.array(eventAuditSchema),
  /**
   * Issue 33 item 3 (an addition): a RERT dispatch's AEMO instruction and reserve contract, and once
   * settled its contract payments (AUD) and the customers' share; null for a dispatch or a RERT
   * dispatch recorded without them.
   */
  rert: z
    .object({
      instruction: z.object({
        id: z.string(),
        noticeCategory: z.string(),
        lorCondition: z.string(),
        preActivationTime: z.number(),
        activationTime: z.number(),
      }),
      contract: z.object({
        reference: z.string(),
        contractedMw: z.number(),
        availabilityRate: z.number(),
        preActivationRate: z.number(),
        activationRate: z.number(),
        usageRate: z.number(),
        customerShare: z.number(),
      }),
      payments: z
        .object({ availability: z.number(), preActivation: z.number(), activation: z.number(), usage: z.number(), total: z.number(), customers: z.number() })
        .nullable(),
    })
    .nullable()
    .optional(),
});
export type DispatchDetail = z.infer<typeof dispatchDetailSchema>;

export const dispatchListQuery = z.object(pagingFields(200, 10));
export const dispatchListReply = okReply(z.object({ dispatches: z.array(dispatchSummarySchema), total: z.number() }));
export const dispatchDetailReply = okReply(dispatchDetailSchema);

/** Previous customer messages of the organisation, newest first, each once. */
export const dispatchMessagesReply = okReply(
  z.object({ messages: z.array(z.object({ customerMessage: z.string(), title: z.string(), createdAt: z.number() })) }),
);

const rejectedKwSchema = z.object({ optedOut: z.number(), offline: z.number(), notAllocated: z.number() });
const notDeliveredKwSchema = z.object({ offline: z.number(), stateOfCharge: z.number(), inverterLimit: z.number(), household: z.number() });

/**
 * Issue 33 item 1, an addition to the response: the measurement against each node's stated baseline
 * (docs/settlement.md). Energies in kWh and powers in kW, signed like the request (positive charges,
 * imports): requested = delivered + rejected + not delivered; delivered = measured − baseline at the
 * meters of the nodes that accepted their orders.
 */
export const dispatchMeasurementSchema = z.object({
  totals: z.object({
    requestedKwh: z.number(),
    baselineKwh: z.number(),
    measuredKwh: z.number(),
    deliveredKwh: z.number(),
    rejectedKwh: rejectedKwSchema,
    notDeliveredKwh: notDeliveredKwSchema,
  }),
  intervals: z.array(
    z.object({
      ts: z.number(),
      seconds: z.number(),
      requestedKw: z.number(),
      baselineKw: z.number(),
      measuredKw: z.number(),
      deliveredKw: z.number(),
      rejectedKw: rejectedKwSchema,
      notDeliveredKw: notDeliveredKwSchema,
      nodesMeasured: z.number(),
      /**
       * Issue 33 "Done when": the interval's settled price ($/MWh) of each NEM region of the measured
       * nodes, and the value of the energy delivered (AUD, Σ node kWh × its region's price ÷ 1000;
       * discharging earns, negative), so the page reproduces the money. Empty and null for a RERT
       * dispatch (under intervention: paid under its contract), before the interval's price is set, and
       * for callers who may not see market data.
       */
      prices: z.record(z.string(), z.number()),
      valueAud: z.number().nullable(),
    }),
  ),
  /** How the accepting nodes' baselines were made: the metered counterfactual, from comparable days, flat from the same day, none. */
  baselineMethods: z.object({ counterfactual: z.number(), comparableDays: z.number(), sameDay: z.number(), none: z.number() }),
  /** Baseline accuracy on this dispatch's undisturbed homes, and on the VPP's settled dispatches of the last 90 days (median, a fraction). */
  baselineError: z.object({ nodes: z.number(), median: z.number().nullable() }),
  vppBaselineError: z.object({ dispatches: z.number(), median: z.number().nullable() }),
});
export type DispatchMeasurement = z.infer<typeof dispatchMeasurementSchema>;

/** `GET /api/dispatches/{id}/response`: measured per 5 minutes (keyed by bucket start) and in total. */
export const dispatchResponseReply = okReply(
  z.object({
    interval: z.number(),
    series: z.record(z.string(), z.object({ realPowerP: z.number(), rejectedRealPowerP: z.number(), deliveredKwh: z.number() })),
    total: dispatchResponseTotalsSchema,
    measurement: dispatchMeasurementSchema,
    /**
     * Issue 31 item 3: what OpenADR VENs reported they delivered (kW per 5-minute bucket, signed
     * like the request), one line per VEN resource; counted in `series` and `total` already.
     * `nodeId` is the node the resource is enrolled as (docs/openadr.md), or null.
     */
    venResponses: z.array(
      z.object({ source: z.string(), resource: z.string(), nodeId: z.number().nullable(), deliveredKwh: z.number(), series: z.record(z.string(), z.number()) }),
    ),
  }),
);

/** `GET /api/dispatches/{id}/remainingcharge`: the dispatch's nodes' stored energy (kWh) per 5 minutes, from an hour before to an hour after. */
export const dispatchRemainingChargeReply = okReply(z.object({ interval: z.number(), remainingCharge: z.record(z.string(), z.number().nullable()) }));

export const DISPATCH_COST_TYPES = ['DISPATCH_NOT_STARTED', 'SETTLED', 'ESTIMATE'] as const;

/**
 * `GET /api/dispatches/{id}/cost` (spec 3 §3.3), AUD: before the start the forecast price of the
 * request; from the start an estimate from the energy delivered so far at each 5-minute price.
 * Charging at a positive price costs (positive), discharging earns (negative). buyPrice and
 * sellPrice are the average prices ($/MWh) of the intervals that charged and that discharged;
 * coverage is the share of responding nodes whose data is complete.
 */
export const dispatchCostReply = okReply(
  z.object({
    type: z.enum(DISPATCH_COST_TYPES),
    cost: z.number().nullable(),
    buyPrice: z.number().nullable(),
    sellPrice: z.number().nullable(),
    coverage: z.number().nullable(),
    /** Why there is no cost (a VPP outside the NEM, a start beyond the price forecast); null otherwise. */
    reason: z.string().nullable(),
    /**
     * The quote the dispatch kept when it was created: its cost (AUD) and average price ($/MWh) at
     * the forecast prices then, when it was quoted, and the issue time and source (P5MIN,
     * PREDISPATCH or MODEL) of the newest forecast run it read. Null for a dispatch created before
     * quotes were kept, or with no NEM price.
     */
    quote: z.object({ cost: z.number(), tradingPrice: z.number(), quotedAt: z.number(), forecastIssuedAt: z.number(), forecastSource: z.string() }).nullable(),
    /** The ESTIMATE or SETTLED cost less the quote's (AUD): what the forecast missed; null before the start or with no quote. */
    difference: z.number().nullable(),
  }),
);
