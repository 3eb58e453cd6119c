import { billingEndpoints } from '@vpp/shared/billing/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { INVOICES_DUE_RECURRING, invoicesDueJob, issueInvoiceJob } from './billing.invoices.service.ts';
import { billingRoutes } from './billing.routes.ts';
import './billing.tables.ts';
import './billing.settings.ts';

export { allocateCents, feedInRates, type SettledEvent, type SettledNodeDay, toCents, writeGridCredits } from './billing.credits.service.ts';
export { issueInvoice, queueDueInvoices } from './billing.invoices.service.ts';
export { seedDemoInvoices } from './billing.seed.ts';

/** Billing: grid-credit line items from settled events, their CSV downloads, and the platform's monthly tax invoices. */
export const billingModule: FeatureModule = {
  name: 'billing',
  endpoints: [billingEndpoints],
  routes: billingRoutes,
  jobs: [issueInvoiceJob, invoicesDueJob],
  recurring: [INVOICES_DUE_RECURRING],
};
