// The billing screens' paths, apart from billing-format.ts: the route table (on the login page) needs
// them without the billing endpoints and their schemas that billing-format.ts brings (issue 30).

export const BILLING_PATH = '/gridcredits/billing';
export const BILLING_SEARCH_PATH = '/gridcredits/billing/search';
export const INVOICES_PATH = '/my-reposit/billing';
