import type { PlanType, ResetPeriod } from '@vpp/shared/plans/constants';
import { isBlockType, type PlanErrors, planStructure, RATE_DECIMALS, type RateFormValues, type validatePlan } from '@vpp/shared/plans/rules';
import type { Plan, SavePlanBody } from '@vpp/shared/plans/schemas';

// The plan form's state (spec 3 §2.9, §5): its values as typed, from and to a plan.

/** The form's values: text as typed (numbers too), a period under the rate it names. */
export interface PlanFormState {
  name: string;
  planCode: string;
  description: string;
  tariffType: PlanType | null;
  operationalNetworkUid: string | null;
  startDate: string;
  resetPeriod: ResetPeriod | null;
  dailyCharge: string;
  feedInTariff: string;
  discount: string;
  rates: RateFormValues[];
  demandRates: RateFormValues[];
}

export const EMPTY_PLAN_FORM: PlanFormState = {
  name: '',
  planCode: '',
  description: '',
  tariffType: null,
  operationalNetworkUid: null,
  startDate: '',
  resetPeriod: null,
  dailyCharge: '',
  feedInTariff: '',
  discount: '0',
  rates: [],
  demandRates: [],
};

/** A price as the form shows it: 4 decimals (spec 3 §5). */
export const formatRate = (price: number) => price.toFixed(RATE_DECIMALS);

/** The form's values of a saved plan: its latest version's prices, rates with 4 decimals. */
export function planFormOf(plan: Plan): PlanFormState {
  const latest = plan.versions.find((v) => v.latest);
  const rates = (list: Plan['rates']): RateFormValues[] =>
    list.map((r) => ({
      label: r.label,
      isBaseRate: r.isBaseRate,
      blocks: r.blocks.map((b) => ({ onset: String(b.onset), price: formatRate(b.price) })),
      periods: r.periods.map((p) => ({ ...p, applicableDays: [...p.applicableDays] })),
    }));
  return {
    name: plan.name,
    planCode: plan.planCode,
    description: plan.description,
    tariffType: plan.tariffType,
    operationalNetworkUid: plan.operationalNetworkUid,
    startDate: latest?.startDate ?? plan.startDate,
    resetPeriod: plan.resetPeriod,
    dailyCharge: formatRate(plan.dailyCharge),
    feedInTariff: formatRate(plan.feedInTariff),
    discount: String(plan.discount),
    rates: rates(plan.rates),
    demandRates: rates(plan.demandRates),
  };
}

/** The save payload of spec 3 §7 the form stands for; `uid` added for an update. */
export function bodyOf(v: PlanFormState, uid?: number): SavePlanBody & ValidatedValues {
  return { ...v, ...(uid === undefined ? {} : { uid }) };
}
type ValidatedValues = Parameters<typeof validatePlan>[0];

/** The form's values once the plan type changes: the structure that type regenerates (spec 3 §4.4); a reset period only for block plans. */
export function withPlanType(v: PlanFormState, type: PlanType): PlanFormState {
  return { ...v, tariffType: type, resetPeriod: isBlockType(type) ? v.resetPeriod : null, ...planStructure(type) };
}

/** Paths whose messages the form shows beside a field or a rate; any other goes to the top with the non-field errors. */
const SHOWN_PATH =
  /^(name|planCode|description|tariffType|operationalNetworkUid|startDate|resetPeriod|dailyCharge|feedInTariff|discount|(rates|demandRates)\.\d+\.(label|blocks|periods|blocks\.\d+\.(onset|price)|periods\.\d+\.(startTime|endTime|applicableDays|rate)))$/;

/** The messages the top of the form lists: the non-field errors, then those of fields it does not show. */
export function topErrors(e: PlanErrors): string[] {
  return [...e.non_field_errors, ...Object.entries(e.errors).flatMap(([path, m]) => (SHOWN_PATH.test(path) ? [] : [m]))];
}
