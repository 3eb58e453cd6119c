import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { epochToLocalDate, localDateToEpoch } from '@vpp/shared/time';
import { z } from 'zod';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { defineJob, enqueue, type Recurring } from '../../platform/jobs.ts';
import * as repo from './billing.repo.ts';
import { aud, BILLING_DEFAULT_ZONE } from './billing.service.ts';

// Tax invoices of the platform to each organisation (issue 15 item 3): issued once a month for the
// month before, stored once with their lines and never changed (but for the paid flag).
//
// Choices where the issue is silent: months are Australia/Sydney calendar months (the supplier's);
// the nodes under management are the nodes in the organisation's fleet at some time in the month (its
// membership history, migration 044) and commissioned before the month's end, billed as one line
// (count × the per-node fee); the dispatches run are the
// organisation's dispatches and RERT dispatches that started within the month and were not cancelled
// before their start, one line (count × the per-dispatch fee). GST is 10 % of the lines' sum, rounded
// once per invoice to the cent, half up.

export const INVOICE_ZONE = BILLING_DEFAULT_ZONE;
const ENGINE_EVENT_TYPES = ['DISPATCH', 'RERT'];

/** GST on a subtotal in cents: 10 %, rounded half up to the cent, once per invoice. */
export const gstOf = (subtotalCents: number) => Math.floor((subtotalCents + 5) / 10);

/** The month after a YYYY-MM month. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
/** The month before. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export const invoiceNumber = (orgId: number, period: string) => `INV-${period.replace('-', '')}-${String(orgId).padStart(4, '0')}`;
/** The PDF's file name (without .pdf) of an invoice. */
export const invoiceFilename = (number: string) => `tax-invoice-${number}`;
export const invoiceUrl = (id: number, number: string) => `/invoices/${id}/${invoiceFilename(number)}.pdf`;

/**
 * Issues an organisation's invoice for a month, once: a second call (another worker, a rerun after
 * a crash) finds the (organisation, period) key taken and writes nothing. Answers the invoice id.
 */
export async function issueInvoice(ctx: AppContext, orgId: number, period: string, now = nowS()): Promise<number | null> {
  const existing = await repo.invoiceIdOf(ctx.db, orgId, period);
  if (existing) return existing.id;
  const org = await repo.organisationOf(ctx.db, orgId);
  if (!org) return null;
  const from = localDateToEpoch(`${period}-01`, INVOICE_ZONE);
  const to = localDateToEpoch(`${nextMonth(period)}-01`, INVOICE_ZONE);
  // The month's nodes under management, from the membership history (issue 33 item 6): in the
  // organisation's fleet at some time in the month, and commissioned before its end.
  const nodes = await repo.countNodesUnderManagement(ctx.db, orgId, from, to);
  const dispatches = await repo.countEventsRun(ctx.db, orgId, ENGINE_EVENT_TYPES, from, to);
  const { BILLING_NODE_FEE_CENTS: nodeFee, BILLING_DISPATCH_FEE_CENTS: dispatchFee } = ctx.config;
  const label = monthName(period);
  const lines = [
    { description: `Nodes under management, ${label}`, quantity: Number(nodes.n), unit_cents: nodeFee },
    { description: `Dispatches run, ${label}`, quantity: Number(dispatches.n), unit_cents: dispatchFee },
  ].map((l, position) => ({ ...l, position, amount_cents: l.quantity * l.unit_cents }));
  const subtotal = lines.reduce((a, l) => a + l.amount_cents, 0);
  const gst = gstOf(subtotal);
  return ctx.db.transaction().execute((trx) =>
    repo.insertInvoice(
      trx,
      {
        organisation_id: orgId,
        number: invoiceNumber(orgId, period),
        period,
        // Issued on the first day of the following month (the monthly job's day), whenever it runs.
        issue_date: `${nextMonth(period)}-01`,
        supplier_name: ctx.config.BILLING_SUPPLIER_NAME,
        supplier_abn: ctx.config.BILLING_SUPPLIER_ABN,
        recipient_name: org.name,
        subtotal_cents: subtotal,
        gst_cents: gst,
        total_cents: subtotal + gst,
        paid: 0,
        paid_at: null,
        paid_by: null,
        created_at: now,
      },
      lines,
    ),
  );
}

/** One invoice's issue, as a durable job. */
export const issueInvoiceJob = defineJob(
  'billing-invoice',
  z.object({ organisationId: z.number().int(), period: z.string().regex(/^\d{4}-\d{2}$/) }),
  async (ctx, p) => {
    await issueInvoice(ctx, p.organisationId, p.period);
  },
);

/** Queues last month's invoice of every organisation that existed then and has none (the unique key queues each once). */
export async function queueDueInvoices(ctx: AppContext, now = nowS()): Promise<number> {
  const period = previousMonth(epochToLocalDate(now, INVOICE_ZONE).slice(0, 7));
  const end = localDateToEpoch(`${nextMonth(period)}-01`, INVOICE_ZONE);
  const orgs = await repo.organisationsWithoutInvoice(ctx.db, period, end);
  let queued = 0;
  for (const o of orgs)
    if ((await enqueue(ctx.db, issueInvoiceJob.kind, { organisationId: o.id, period }, { uniqueKey: `${issueInvoiceJob.kind}:${o.id}:${period}` })) !== null)
      queued++;
  return queued;
}

/** Checks every day whether last month's invoices are out (a month has no fixed length; a day is enough). */
export const invoicesDueJob = defineJob('billing-invoices-due', z.object({ at: z.number() }), async (ctx) => {
  await queueDueInvoices(ctx);
});
export const INVOICES_DUE_RECURRING: Recurring = { kind: invoicesDueJob.kind, periodS: 86_400 };

type InvoiceRow = { id: number; number: string; issue_date: string; period: string; total_cents: number | string; gst_cents: number | string; paid: number };
const toInvoice = (r: InvoiceRow) => ({
  id: r.id,
  number: r.number,
  date: r.issue_date,
  period: r.period,
  total: aud(Number(r.total_cents)),
  gst: aud(Number(r.gst_cents)),
  paid: Number(r.paid) === 1,
  downloadURL: invoiceUrl(r.id, r.number),
});

export async function listInvoices(ctx: AppContext, user: AuthUser) {
  const rows = await repo.listInvoiceRows(ctx.db, user.organisationId);
  return { invoices: rows.map(toInvoice), canMarkPaid: isBillingOperator(ctx, user) };
}

/** Whether the caller is of the organisation that runs the platform and issues the invoices (the route checks the billing and administrator permissions). */
const isBillingOperator = (ctx: AppContext, user: AuthUser) =>
  ctx.config.billingOperatorOrganisation !== null && user.row.organisation_name === ctx.config.billingOperatorOrganisation;

const notFound = () => new ApiError(404, 'not_found', BILLING_MESSAGES.invoiceNotFound);

/** The caller's organisation's invoice, or 404 (another organisation's included). */
export async function requireInvoice(db: Database, user: AuthUser, id: number) {
  const invoice = await repo.invoiceWithLines(db, user.organisationId, id);
  if (!invoice) throw notFound();
  return invoice;
}

/**
 * Sets the paid flag (the only thing about an invoice that ever changes): the supplier records the
 * payment, so only the billing administrators of the platform's operating organisation may, on any
 * organisation's invoice; the invoiced organisation's own administrators get 403 (issue 33 item 6).
 */
export async function setPaid(ctx: AppContext, user: AuthUser, id: number, paid: boolean, now = nowS()) {
  if (!isBillingOperator(ctx, user)) {
    // 404 first for another organisation's invoice (ids do not leak), then 403 for the caller's own.
    await requireInvoice(ctx.db, user, id);
    throw new ApiError(403, 'invoice_paid_operator_only', BILLING_MESSAGES.markPaidOperatorOnly);
  }
  if (!(await repo.invoiceRowOfAnyOrganisation(ctx.db, id))) throw notFound();
  await repo.setInvoicePaid(ctx.db, id, { paid: paid ? 1 : 0, paid_at: paid ? now : null, paid_by: paid ? user.id : null });
  const row = await repo.invoiceRowOfAnyOrganisation(ctx.db, id);
  if (!row) throw notFound();
  return toInvoice(row);
}
