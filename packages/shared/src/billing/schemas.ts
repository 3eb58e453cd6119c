import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { pagingFields, recordId } from '../api/inputs.ts';
import { isIsoDate } from '../plans/rules.ts';
import { BILLING_MESSAGES } from './messages.ts';

/**
 * The grid-credit line-item types the settlements write: 'Spot Price', a dispatch's credit at the
 * market price; 'RERT', a RERT dispatch's (an emergency reserve activated by AEMO, not spot trading);
 * 'Curtailment', a fixed-rate credit for solar held back by a curtailment (the customer's feed-in
 * tariff, the revenue the customer lost).
 */
export const BILLING_ITEM_TYPES = ['Spot Price', 'RERT', 'Curtailment'] as const;
export type BillingItemType = (typeof BILLING_ITEM_TYPES)[number];
/** The kind of event a line item settles. */
export const BILLING_EVENT_KINDS = ['dispatch', 'rert', 'curtailment'] as const;
export type BillingEventKind = (typeof BILLING_EVENT_KINDS)[number];

const EVENT_NAMES: Record<BillingEventKind, string> = { dispatch: 'Dispatch', rert: 'RERT dispatch', curtailment: 'Curtailment' };
/** The event a grid credit settles, as screens and the CSV name it: 'Dispatch 52', 'RERT dispatch 7', 'Curtailment 3'. */
export const billingEventName = (kind: BillingEventKind, id: number) => `${EVENT_NAMES[kind]} ${id}`;

/** How a billing date is given in a query: YYYY-MM-DD (the customer's local date of a line item). */
const billingDate = (field: 'start' | 'end') =>
  z.string({ error: BILLING_MESSAGES.dateFormat(field) }).refine((v) => isIsoDate(v), BILLING_MESSAGES.dateFormat(field));

/**
 * The start and end of a billing range, both inclusive local dates (YYYY-MM-DD), start not after end.
 * "Not after today" (in the caller's time zone) is checked by the server, which knows the caller.
 */
export const billingRangeFields = { start: billingDate('start'), end: billingDate('end') };
function refineRange(q: { start: string; end: string }, ctx: z.RefinementCtx) {
  if (isIsoDate(q.start) && isIsoDate(q.end) && q.start > q.end) ctx.addIssue({ code: 'custom', message: BILLING_MESSAGES.startAfterEnd, path: ['start'] });
}

/**
 * The first refusal of a range as the browser can check it before asking: a malformed date, start after
 * end, a date after `today` (YYYY-MM-DD in the user's time zone). Null when the range is fine.
 */
export function billingRangeError(start: string, end: string, today: string): string | null {
  if (!isIsoDate(start)) return BILLING_MESSAGES.dateFormat('start');
  if (!isIsoDate(end)) return BILLING_MESSAGES.dateFormat('end');
  if (start > end) return BILLING_MESSAGES.startAfterEnd;
  if (start > today) return BILLING_MESSAGES.afterToday('start');
  if (end > today) return BILLING_MESSAGES.afterToday('end');
  return null;
}

/** `?token=`: a single-use download token, in place of the bearer, on routes the browser opens as links. */
export const downloadTokenField = { token: z.string().max(200, 'token must be at most 200 characters.').optional() };

/** GET /billing/items: the line items whose local day is within [start, end], paged (spec page sizes). */
export const billingItemsQuery = z.object({ ...billingRangeFields, ...pagingFields(200, 10) }).superRefine(refineRange);
export type BillingItemsQuery = z.input<typeof billingItemsQuery>;

/**
 * A grid-credit line item (spec 3 §3.10): what the retailer credits one customer (NMI) for one event on
 * one local day. `amount` is the energy in kWh the customer's battery gave in a dispatch or RERT
 * dispatch, or the solar a curtailment held back; `rate` $/kWh, `cost` the credit in AUD (2 decimals,
 * positive: money owed to the customer).
 */
export const billingItemSchema = z.object({
  id: z.number(),
  nmi: z.string(),
  /** The customer's local date (YYYY-MM-DD). */
  day: z.string(),
  /** Epoch seconds: the start of the event within that day. */
  ts: z.number(),
  /** 'Spot Price' for credits at the market price, 'RERT' for a RERT dispatch's, 'Curtailment' at a fixed rate; blank shows 'Support Request'. */
  type: z.string(),
  amount: z.number(),
  rate: z.number(),
  cost: z.number(),
  /** The event the item settles, and its name as screens and the CSV show it ('RERT dispatch 7'). */
  eventKind: z.enum(BILLING_EVENT_KINDS),
  eventId: z.number(),
  event: z.string(),
});
export type BillingItem = z.infer<typeof billingItemSchema>;
export const billingItemsReply = okReply(
  z.object({
    items: z.array(billingItemSchema),
    total: z.number(),
    /** Sum of `cost` over the whole range (not only the page), AUD. */
    totalCost: z.number(),
    /** Distinct events with items in the range: the CSV buttons show when it is above 0. */
    eventCount: z.number(),
  }),
);
export type BillingItemsReply = z.infer<typeof billingItemsReply>;

/** Intervals the customer count is grouped by (spec 3 §9: default month). */
export const BILLING_INTERVALS = ['day', 'week', 'month'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const billingCustomersQuery = z.object({
  interval: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(BILLING_INTERVALS, { error: `interval must be one of ${BILLING_INTERVALS.join(', ')}.` }).default('month'),
  ),
});
export type BillingCustomersQuery = z.input<typeof billingCustomersQuery>;
/** Distinct customers (NMIs) credited per interval, by the local day of their items; weeks start on Monday. */
export const billingCustomersReply = okReply(
  z.object({
    interval: z.enum(BILLING_INTERVALS),
    items: z.array(z.object({ /** YYYY-MM-DD: the first day of the interval. */ date: z.string(), customerCount: z.number() })),
  }),
);
export type BillingCustomersReply = z.infer<typeof billingCustomersReply>;

/** One month of grid credits (spec 3 §3.10): latest month first. */
export const billingMonthSchema = z.object({
  /** YYYY-MM. */
  date: z.string(),
  /** The month's first and last day (YYYY-MM-DD): the range of its search and CSV downloads. */
  start: z.string(),
  end: z.string(),
  /** Sum of the month's credits, AUD. */
  value: z.number(),
  /** Line items. */
  count: z.number(),
  /** Distinct events settled into the month. */
  eventCount: z.number(),
  /** Distinct customers (NMIs) credited. */
  customerCount: z.number(),
});
export type BillingMonth = z.infer<typeof billingMonthSchema>;
export const billingMonthlyReply = okReply(z.object({ months: z.array(billingMonthSchema) }));
export type BillingMonthlyReply = z.infer<typeof billingMonthlyReply>;

/** GET /billing/events/csv and /billing/month/csv: start and end as for the items, and the download token. */
export const billingCsvQuery = z.object({ ...billingRangeFields, ...downloadTokenField }).superRefine(refineRange);
export type BillingCsvQuery = z.input<typeof billingCsvQuery>;

/** An invoice of the platform to the organisation (spec 3 §3.10). */
export const invoiceSchema = z.object({
  id: z.number(),
  /** The invoice number, e.g. INV-000012. */
  number: z.string(),
  /** Issue date, YYYY-MM-DD. */
  date: z.string(),
  /** The month billed, YYYY-MM. */
  period: z.string(),
  /** Total including GST, AUD (2 decimals). */
  total: z.number(),
  gst: z.number(),
  paid: z.boolean(),
  /** Path of the PDF (`/invoices/{id}/{filename}.pdf`); open it with a download token (`?token=`). */
  downloadURL: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
/** `canMarkPaid`: whether the caller may set an invoice paid (the platform's own billing administrators only). */
export const invoiceListReply = okReply(z.object({ invoices: z.array(invoiceSchema), canMarkPaid: z.boolean() }));
export type InvoiceListReply = z.infer<typeof invoiceListReply>;

export const invoiceIdParams = z.object({ id: recordId('invoice', 'The invoice id') });
export const invoicePaidBody = z.object({ paid: z.boolean({ error: 'paid must be true or false.' }).meta({ examples: [true] }) });
export type InvoicePaidBody = z.input<typeof invoicePaidBody>;
export const invoicePaidReply = okReply(invoiceSchema);

const filenameMessage = 'The file name must be letters, digits, dots, dashes or underscores ending in .pdf.';
export const invoicePdfParams = z.object({
  id: recordId('invoice', 'The invoice id'),
  filename: z
    .string({ error: filenameMessage })
    .max(120, filenameMessage)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.pdf$/, filenameMessage)
    .meta({ examples: ['tax-invoice-INV-202501-0001.pdf'] }),
});
export const invoicePdfQuery = z.object(downloadTokenField);

/**
 * POST /billing/download-token: a single-use link for one download. `path` is the exact path and query
 * to open (`/billing/events/csv?start=2026-10-01&end=2026-10-31`, or an invoice's downloadURL); the
 * token works once, for that user, organisation, path and query, within 60 s.
 */
export const downloadTokenBody = z.object({
  path: z
    .string({ error: 'path must be the path of a download.' })
    .min(1, 'path must be the path of a download.')
    .max(500, 'path must be at most 500 characters.'),
});
export type DownloadTokenBody = z.input<typeof downloadTokenBody>;
export const downloadTokenReply = okReply(
  z.object({
    token: z.string(),
    /** Epoch seconds after which the token is refused. */
    expiresAt: z.number(),
    /** The path with `token` added to its query: open it (window.location or a link). */
    url: z.string(),
  }),
);
export type DownloadTokenReply = z.infer<typeof downloadTokenReply>;
