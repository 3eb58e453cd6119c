/** The plan routes of spec 3 §2.1: a plan is named by its code, URL-encoded (spaces and slashes travel). */
export const PLAN_LIST_PATH = '/customers/plans';
export const PLAN_NEW_PATH = '/customers/plans/new';
export const planPath = (planCode: string) => `${PLAN_LIST_PATH}/${encodeURIComponent(planCode)}`;
export const planEditPath = (planCode: string) => `${planPath(planCode)}/edit`;
/** The breadcrumb's group for the plan screens (spec 1 §2: plans sit in the Customers group). */
export const PLANS_BREADCRUMB = { label: 'Customers' };
