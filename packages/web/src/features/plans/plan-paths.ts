/** The plan routes of spec 3 §2.1: a plan is named by its code, URL-encoded (spaces and slashes travel). */
export const PLAN_LIST_PATH = '/customers/plans';
export const PLAN_NEW_PATH = '/customers/plans/new';
export const planPath = (planCode: string) => `${PLAN_LIST_PATH}/${encodeURIComponent(planCode)}`;
export const planEditPath = (planCode: string) => `${planPath(planCode)}/edit`;
/** The breadcrumb's group for the plan screens (spec 1 §2: plans sit in the Customers group). */
export const PLANS_BREADCRUMB = { label: 'Customers' };

/** YYYY-MM-DD as dd/MM/yyyy (spec 3 §9's date format). */
export const formatIsoDate = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
