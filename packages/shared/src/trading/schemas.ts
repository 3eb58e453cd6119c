import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { okReply } from '../api/envelope.ts';
import { DISPATCH_EDIT, DISPATCH_VIEW } from '../dispatches/permissions.ts';
import { vppIdParams } from '../vpps/endpoints.ts';

/** A VPP's trading policy: off, or automatic within the operator's limits (docs/trading.md). */
export const TRADING_MODES = ['OFF', 'AUTOMATIC'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

/** The plan runs 24 hours ahead in 5-minute intervals and is made again every 5 minutes. */
export const TRADING_HORIZON_S = 86_400;
export const TRADING_STEP_S = 300;
/** A forecast older than this suspends new automatic dispatches (issue 35). */
export const TRADING_FORECAST_MAX_AGE_S = 1800;

export const TRADING_LIMITS = {
  minSocPct: { min: 0, max: 100 },
  maxCyclesPerDay: { min: 0.1, max: 5 },
  degradationCostPerMWh: { min: 0, max: 1000 },
  maxPowerKw: { min: 0.1, max: 10_000_000 },
} as const;

export const TRADING_MESSAGES = {
  hours: 'The trading hours must be whole hours from 0 to 24, and the end after the start.',
  minSoc: `The lowest state of charge must be a percentage from ${TRADING_LIMITS.minSocPct.min} to ${TRADING_LIMITS.minSocPct.max}.`,
  cycles: `The most cycles a day must be a number from ${TRADING_LIMITS.maxCyclesPerDay.min} to ${TRADING_LIMITS.maxCyclesPerDay.max}.`,
  degradation: `The degradation cost must be a number of $/MWh from ${TRADING_LIMITS.degradationCostPerMWh.min} to ${TRADING_LIMITS.degradationCostPerMWh.max}.`,
  maxPower: `The most power must be a number of kW from ${TRADING_LIMITS.maxPowerKw.min} to ${TRADING_LIMITS.maxPowerKw.max}, or empty for the VPP's whole power.`,
  fcas: 'An FCAS VPP cannot trade automatically: its units answer AEMO directly.',
  outsideNem: 'This VPP has no nodes in the NEM, so it has no price to trade against.',
  noBatteries: 'This VPP has no reporting batteries to plan with.',
  staleForecast: 'The price forecast is more than 30 minutes old, so no new automatic dispatch is made until it is fresh again.',
  solverFailed: 'The optimiser could not make a new plan; the previous plan stands and no new dispatch is made from a failed plan.',
  automaticReason: 'Automatic',
} as const;

const number = (message: string, min: number, max: number) => z.number({ error: message }).finite(message).min(min, message).max(max, message);

const DEFAULTS = {
  mode: 'OFF' as const,
  fromHour: 0,
  toHour: 24,
  maxPowerKw: null,
  minSocPct: 20,
  maxCyclesPerDay: 1,
  degradationCostPerMWh: 20,
  gridCharging: true,
};

/** Each field's example (the API reference shows it; the generated calls send it) is the default policy's. */
const example = <K extends keyof typeof DEFAULTS>(k: K) => ({ examples: [DEFAULTS[k]] });

export const tradingPolicySchema = z
  .object({
    mode: z.enum(TRADING_MODES, { error: `mode must be one of ${TRADING_MODES.join(', ')}.` }).meta(example('mode')),
    /** Hours of the day (the VPP's market time, UTC+10) the policy may act in: [fromHour, toHour). */
    fromHour: z
      .number({ error: TRADING_MESSAGES.hours })
      .int(TRADING_MESSAGES.hours)
      .min(0, TRADING_MESSAGES.hours)
      .max(23, TRADING_MESSAGES.hours)
      .meta(example('fromHour')),
    toHour: z
      .number({ error: TRADING_MESSAGES.hours })
      .int(TRADING_MESSAGES.hours)
      .min(1, TRADING_MESSAGES.hours)
      .max(24, TRADING_MESSAGES.hours)
      .meta(example('toHour')),
    /** The most power the policy may use, kW, either way; null for the VPP's whole power. */
    maxPowerKw: number(TRADING_MESSAGES.maxPower, TRADING_LIMITS.maxPowerKw.min, TRADING_LIMITS.maxPowerKw.max).nullable().meta(example('maxPowerKw')),
    /** The lowest state of charge the policy may leave, %; each customer's own reserve binds when higher. */
    minSocPct: number(TRADING_MESSAGES.minSoc, TRADING_LIMITS.minSocPct.min, TRADING_LIMITS.minSocPct.max).meta(example('minSocPct')),
    maxCyclesPerDay: number(TRADING_MESSAGES.cycles, TRADING_LIMITS.maxCyclesPerDay.min, TRADING_LIMITS.maxCyclesPerDay.max).meta(example('maxCyclesPerDay')),
    /** $/MWh of throughput (energy charged plus discharged). */
    degradationCostPerMWh: number(TRADING_MESSAGES.degradation, TRADING_LIMITS.degradationCostPerMWh.min, TRADING_LIMITS.degradationCostPerMWh.max).meta(
      example('degradationCostPerMWh'),
    ),
    gridCharging: z.boolean({ error: 'gridCharging must be true or false.' }).meta(example('gridCharging')),
  })
  .refine((p) => p.toHour > p.fromHour, { message: TRADING_MESSAGES.hours, path: ['toHour'] });
export type TradingPolicy = z.infer<typeof tradingPolicySchema>;

/** The policy of a VPP that has none stored: off. */
export const DEFAULT_TRADING_POLICY: TradingPolicy = DEFAULTS;

export const plannedIntervalSchema = z.object({
  start: z.number().int(),
  /** kW at the meter, positive charging. */
  kw: z.number(),
  /** The forecast price the plan assumed, $/MWh. */
  price: z.number(),
  storedKwh: z.number(),
  /** Expected revenue at the forecast price less degradation, $. */
  revenue: z.number(),
});

/** What was planned for a past interval and what happened. */
export const tradingOutcomeSchema = z.object({
  start: z.number().int(),
  plannedKw: z.number(),
  plannedRevenue: z.number(),
  /** The actual price, $/MWh; null until known. */
  actualPrice: z.number().nullable(),
  /** The automatic dispatches' delivered power at the meter, kW; null where none ran. */
  deliveredKw: z.number().nullable(),
  /** Delivered energy at the actual price less degradation, $; null until known. */
  earned: z.number().nullable(),
});

export const tradingStateSchema = z.object({
  policy: tradingPolicySchema,
  updatedAt: z.number().int().nullable(),
  updatedBy: z.string().nullable(),
  /** When the plan below was made; null when none was. */
  plannedAt: z.number().int().nullable(),
  /** Why the policy is not acting now (stale forecast, failed solve, no batteries…); null when it is. */
  suspended: z.string().nullable(),
  plan: z.array(plannedIntervalSchema),
  expectedRevenue: z.number(),
  /** The last 24 hours: plan against delivery and earnings. */
  outcome: z.array(tradingOutcomeSchema),
});
export type TradingState = z.infer<typeof tradingStateSchema>;

/** The longest period a backtest asked for on the screen may cover, market days (`npm run backtest` allows 92). */
export const BACKTEST_MAX_DAYS = 31;
/** The screen's backtests re-plan every 30 minutes (the live job re-plans every 5; docs/trading.md says what that changes). */
export const BACKTEST_REPLAN_S = 1800;

export const BACKTEST_MESSAGES = {
  day: 'Each day must be a date, YYYY-MM-DD (market time).',
  order: 'The last day must not be before the first day.',
  tooLong: `A backtest covers at most ${BACKTEST_MAX_DAYS} days.`,
  notEnded: 'The period must have ended: actual prices are known only for intervals that have, so its last day must be before today (market time).',
  running: 'A backtest of this VPP is already running; wait for it to finish.',
  failed: 'The backtest failed; try again later.',
} as const;

const marketDaySchema = z
  .string({ error: BACKTEST_MESSAGES.day })
  .regex(/^\d{4}-\d{2}-\d{2}$/, BACKTEST_MESSAGES.day)
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), BACKTEST_MESSAGES.day);

/** A backtest's period: its first and last market days (UTC+10), both whole. */
export const backtestBodySchema = z.object({ firstDay: marketDaySchema, lastDay: marketDaySchema });
export type BacktestBody = z.infer<typeof backtestBodySchema>;

export const strategyResultSchema = z.object({
  name: z.string(),
  /** $: the actual price times the energy at the meter, less degradation. */
  revenue: z.number(),
  dischargedKwh: z.number(),
  chargedKwh: z.number(),
  /** Energy drawn from the store over its capacity, and the most in any one market day. */
  cycles: z.number(),
  maxDayCycles: z.number(),
  minStoredKwh: z.number(),
});
export type StrategyFigures = z.infer<typeof strategyResultSchema>;

export const backtestFiguresSchema = z.object({
  region: z.string(),
  capacityKwh: z.number(),
  powerKw: z.number(),
  floorKwh: z.number(),
  replanMinutes: z.number(),
  plans: z.number().int(),
  optimiser: strategyResultSchema,
  threshold: strategyResultSchema,
  evening: strategyResultSchema,
  /** The optimiser's revenue over the better naive rule's, less one; null when that rule earned nothing. */
  gainOverBestNaive: z.number().nullable(),
});
export type BacktestFigures = z.infer<typeof backtestFiguresSchema>;

export const BACKTEST_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
export const backtestSchema = z.object({
  id: z.number().int(),
  firstDay: z.string(),
  lastDay: z.string(),
  requestedAt: z.number().int(),
  requestedBy: z.string(),
  status: z.enum(BACKTEST_STATUSES),
  /** 0 to 1. */
  progress: z.number(),
  result: backtestFiguresSchema.nullable(),
  error: z.string().nullable(),
});
export type Backtest = z.infer<typeof backtestSchema>;

const backtestParams = vppIdParams;

/** Automatic trading of a VPP (issue 35): its policy, its plan over the price forecast and its results. */
export const tradingEndpoints = defineEndpoints('trading', {
  state: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/trading',
    summary: "The VPP's trading policy, its plan for the next 24 hours over the price forecast, and the last 24 hours' plan against delivery",
    permission: DISPATCH_VIEW,
    params: vppIdParams,
    reply: okReply(tradingStateSchema),
  }),
  setPolicy: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/api/powerstations/:id/trading',
    summary: "Set the VPP's trading policy; switching it off withdraws the plan's upcoming automatic dispatches",
    permission: DISPATCH_EDIT,
    params: vppIdParams,
    body: tradingPolicySchema,
    reply: okReply(tradingStateSchema),
  }),
  backtests: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/powerstations/:id/trading/backtests',
    summary: "The VPP's last 10 backtests, newest first: each period, its progress and its figures (market data: retailers and traders)",
    permission: DISPATCH_VIEW,
    params: backtestParams,
    reply: okReply(z.array(backtestSchema)),
  }),
  startBacktest: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/powerstations/:id/trading/backtests',
    summary: `Backtests the VPP's trading policy over a period of actual prices (at most ${BACKTEST_MAX_DAYS} days, ended): runs in the background, answered at once`,
    permission: DISPATCH_VIEW,
    params: backtestParams,
    body: backtestBodySchema,
    reply: okReply(backtestSchema),
  }),
});
