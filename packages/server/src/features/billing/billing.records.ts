import type { RecordMaker } from '../../test/record-owner.ts';
import { issueInvoice } from './billing.invoices.service.ts';

/** A record of the billing area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  // The platform's invoice of a past month to their organisation, as the monthly job issues it.
  invoice: async (h, org) => (await issueInvoice(h.ctx, org.id, '2025-01')) as number,
};
