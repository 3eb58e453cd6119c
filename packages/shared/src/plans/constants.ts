/** Plan types (spec 3 §9). */
export const PLAN_TYPES = ['FLAT_RATE', 'TOU', 'TOU_BLOCK', 'BLOCK', 'FLAT_DEMAND', 'TOU_DEMAND'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
export const PLAN_TYPE_LABELS: Record<PlanType, string> = {
  FLAT_RATE: 'Flat Rate',
  TOU: 'Time of Use',
  TOU_BLOCK: 'Time of Use Block',
  BLOCK: 'Block',
  FLAT_DEMAND: 'Flat Demand',
  TOU_DEMAND: 'Time of Use Demand',
};
/** Reset periods of block consumption (spec 3 §5). */
export const RESET_PERIODS = ['DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY'] as const;
export type ResetPeriod = (typeof RESET_PERIODS)[number];
/** Days a period applies on (spec 3 §7): MON..SUN and PUBLIC_HOLIDAYS. */
export const PLAN_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN', 'PUBLIC_HOLIDAYS'] as const;
export type PlanDay = (typeof PLAN_DAYS)[number];
export const PLAN_SORTS = ['name', 'type', 'network', 'customers'] as const;
export type PlanSort = (typeof PLAN_SORTS)[number];
