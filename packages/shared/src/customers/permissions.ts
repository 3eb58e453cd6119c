import type { PermissionRequirement } from '../permissions/registry.ts';

/** Seeing customers (spec 3 §6): either customer permission opens the list and the detail. */
export const CUSTOMER_VIEW = { anyOf: ['fleet.customerInformation.any', 'fleet.customerInformation.contracts.any'] } as const satisfies PermissionRequirement;
/** Seeing plans, and a customer's current plan on the customer detail (spec 3 §2.8, §6). */
export const PLAN_VIEW = 'fleet.customerInformation.plans.any' satisfies PermissionRequirement;
/** Creating and editing plans: the New Plan button and the edit screen. */
export const PLAN_EDIT = 'fleet.customerInformation.plans.edit' satisfies PermissionRequirement;
