import { epochToLocalDate } from '@vpp/shared/time';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { INVOICE_ZONE, issueInvoice, previousMonth } from './billing.invoices.service.ts';
import { organisationIds } from './billing.repo.ts';

/** Months of invoices the demo starts with. */
const DEMO_INVOICE_MONTHS = 3;

/**
 * The demo's invoices: every organisation's last three months, issued as the monthly job would have
 * (from the fleet and the events the database holds). Run once the demo fleet has joined, so that the
 * nodes under management are counted.
 */
export async function seedDemoInvoices(ctx: AppContext): Promise<void> {
  const orgs = await organisationIds(ctx.db);
  let period = epochToLocalDate(nowS(), INVOICE_ZONE).slice(0, 7);
  for (let i = 0; i < DEMO_INVOICE_MONTHS; i++) {
    period = previousMonth(period);
    for (const o of orgs) await issueInvoice(ctx, o.id, period);
  }
}
