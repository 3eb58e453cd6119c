// The customer routes of spec 3 §2.1, apart from customer-format.ts: the route table (on the login
// page) needs them without the customer schemas that customer-format.ts brings (issue 30).

/** The customer list; a customer is named by its NMI. */
export const CUSTOMER_LIST_PATH = '/customers/manage';
export const customerPath = (nmi: string) => `${CUSTOMER_LIST_PATH}/${encodeURIComponent(nmi)}`;
