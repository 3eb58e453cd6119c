import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { boundedList, MAX_ID, pagingFields, sortFields } from '../api/inputs.ts';
import { PLAN_DAYS, PLAN_SORTS, PLAN_TYPES, RESET_PERIODS } from './constants.ts';

/*
 * The plan model of spec 3 §3.9, kept mappable to the Consumer Data Right's Energy Plan Detail
 * (CDR Energy API, EnergyPlanContract):
 *   planCode → planId; name → displayName; description → description;
 *   operationalNetwork → geography.distributors[]; startDate of each version → effectiveFrom, the
 *   next version's startDate → effectiveTo;
 *   tariffType → pricingModel (FLAT_RATE, BLOCK, FLAT_DEMAND → SINGLE_RATE; TOU, TOU_BLOCK,
 *   TOU_DEMAND → TIME_OF_USE);
 *   dailyCharge → tariffPeriod.dailySupplyCharges; rates[] → tariffPeriod.singleRate (one rate) or
 *   timeOfUseRates[] (displayName = label; timeOfUse[] = periods with days MON..SUN and
 *   PUBLIC_HOLIDAYS, startTime/endTime as HHMM); blocks[] → rates[] where a block's `volume` is the
 *   next block's onset minus its own (the last has none) and unitPrice = price; resetPeriod →
 *   the block's period (P1D, P1W, P1M, P3M); demandRates[] → demandCharges[] (amount = price,
 *   measureUnit KW, chargePeriod DAY, minDemand = onset, days/startTime/endTime from periods);
 *   feedInTariff → solarFeedInTariff[].singleTariff.rates[0].unitPrice. Prices exclude GST, as the
 *   CDR's do when its `isGstInclusive`-less fields are read as GST-exclusive.
 */

/** A number as the plan form holds it: a number, or the text typed in its input. */
const formNumber = z
  .union([z.number(), z.string().max(32, 'A number can have at most 32 characters.')])
  .nullable()
  .optional();
const formText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text.` })
    .max(max, `${name} must be at most ${max} characters.`)
    .nullable()
    .optional();

/** One price block of a rate: from `onset` (kWh within the reset period, or kW for demand) at `price` ($/kWh, or $/kW/day). */
export const planBlockInput = z.object({ onset: formNumber, price: formNumber });
/** When a rate applies: [startTime, endTime) as HH:MM on the days listed; `rate` is the label of the rate it applies. */
export const planPeriodInput = z.object({
  startTime: formText('startTime', 16),
  endTime: formText('endTime', 16),
  applicableDays: boundedList(z.enum(PLAN_DAYS, { error: `applicableDays must be among ${PLAN_DAYS.join(', ')}.` }), 'applicableDays', 8).default([]),
  rate: formText('rate', 100),
});
export const planRateInput = z.object({
  label: formText('label', 100),
  isBaseRate: z.boolean({ error: 'isBaseRate must be true or false.' }).optional(),
  blocks: boundedList(planBlockInput, 'blocks', 20).default([]),
  periods: boundedList(planPeriodInput, 'periods', 50).default([]),
});

/**
 * `POST /contracts/plan` and `PUT /contracts/plan/{uid}` (spec 3 §7): the plan form's values. The
 * schema checks only their shape; `validatePlan` (rules.ts) checks their content and answers the
 * form's messages per field, so that the browser and the server refuse the same plans in the same words.
 */
export const savePlanBody = z.object({
  uid: z.number().int().min(1).max(MAX_ID).optional(),
  name: formText('name', 200),
  planCode: formText('planCode', 100),
  description: formText('description', 2000),
  tariffType: z
    .enum(PLAN_TYPES, { error: `tariffType must be one of ${PLAN_TYPES.join(', ')}.` })
    .nullable()
    .optional(),
  operationalNetworkUid: formText('operationalNetworkUid', 100),
  startDate: formText('startDate', 32),
  resetPeriod: z
    .enum(RESET_PERIODS, { error: `resetPeriod must be one of ${RESET_PERIODS.join(', ')}.` })
    .nullable()
    .optional(),
  dailyCharge: formNumber,
  feedInTariff: formNumber,
  /** Percent off the energy and demand charges (ours: the spec's tariff carries a discount without its form). */
  discount: formNumber,
  rates: boundedList(planRateInput, 'rates', 20).default([]),
  demandRates: boundedList(planRateInput, 'demandRates', 20).default([]),
});
export type SavePlanBody = z.input<typeof savePlanBody>;
export type PlanFormValues = z.output<typeof savePlanBody>;

export const planBlockSchema = z.object({ onset: z.number(), price: z.number() });
export const planPeriodSchema = z.object({
  startTime: z.string(),
  endTime: z.string(),
  applicableDays: z.array(z.enum(PLAN_DAYS)),
  rate: z.string(),
});
export const planRateSchema = z.object({
  label: z.string(),
  isBaseRate: z.boolean(),
  blocks: z.array(planBlockSchema),
  periods: z.array(planPeriodSchema),
});
export type PlanBlock = z.infer<typeof planBlockSchema>;
export type PlanPeriod = z.infer<typeof planPeriodSchema>;
export type PlanRate = z.infer<typeof planRateSchema>;

/** The prices of a plan from one date: a price edit from a later date adds a version; the earlier one keeps applying before it. */
export const planVersionSchema = z.object({
  latest: z.boolean(),
  /** YYYY-MM-DD, in the customer's local time. */
  startDate: z.string(),
  /** The day after which the next version applies (its startDate), null for the latest. */
  endDate: z.string().nullable(),
  tariffType: z.enum(PLAN_TYPES),
  resetPeriod: z.enum(RESET_PERIODS).nullable(),
  rates: z.array(planRateSchema),
  demandRates: z.array(planRateSchema),
  dailyCharge: z.number(),
  feedInTariff: z.number(),
  discount: z.number(),
});
export type PlanVersion = z.infer<typeof planVersionSchema>;

/** The priced parts of a version: what the bill estimate needs. */
export type PlanPrices = Omit<PlanVersion, 'latest' | 'endDate'>;

/** A plan (spec 3 §3.9). The top-level prices are the latest version's. */
export const planSchema = z.object({
  uid: z.number(),
  name: z.string(),
  planCode: z.string(),
  description: z.string(),
  tariffType: z.enum(PLAN_TYPES),
  operationalNetworkUid: z.string(),
  operationalNetwork: z.string(),
  startDate: z.string(),
  resetPeriod: z.enum(RESET_PERIODS).nullable(),
  dailyCharge: z.number(),
  feedInTariff: z.number(),
  discount: z.number(),
  customersCount: z.number(),
  versions: z.array(planVersionSchema),
  rates: z.array(planRateSchema),
  demandRates: z.array(planRateSchema),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Plan = z.infer<typeof planSchema>;

/** A row of the plan list (spec 3 §2.9): Name (with code), Network, Plan Type, Customers. */
export const planSummarySchema = planSchema.pick({
  uid: true,
  name: true,
  planCode: true,
  description: true,
  tariffType: true,
  operationalNetworkUid: true,
  operationalNetwork: true,
  startDate: true,
  customersCount: true,
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

/** `GET /contracts/plan`: filters network, plan type and name or code; sort by name, type, network or customers; default name ascending. */
export const planListQuery = z.object({
  network: z.string().max(100, 'network must be at most 100 characters.').optional(),
  tariffType: z.enum(PLAN_TYPES, { error: `tariffType must be one of ${PLAN_TYPES.join(', ')}.` }).optional(),
  /** Part of the plan's name or code, any case. */
  search: z.string().max(200, 'search must be at most 200 characters.').optional(),
  ...sortFields(PLAN_SORTS, 'name'),
  ...pagingFields(200),
});
export type PlanListQuery = z.input<typeof planListQuery>;

export const planListReply = okReply(z.object({ plans: z.array(planSummarySchema), total: z.number() }));
export const planReply = okReply(planSchema);
export const savePlanReply = okReply(planSchema);

/** A network, whether it is in the NEM, and if not why its homes are not offered plans (issue 33 item 8). */
export const operationalNetworkSchema = z.object({
  uid: z.string(),
  name: z.string(),
  states: z.array(z.string()),
  nem: z.boolean(),
  outsideNem: z.string().nullable(),
});
export type OperationalNetworkItem = z.infer<typeof operationalNetworkSchema>;
export const operationalNetworksReply = okReply(z.object({ networks: z.array(operationalNetworkSchema) }));
