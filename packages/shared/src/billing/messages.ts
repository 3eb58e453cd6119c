/** The exact billing texts of spec 3 §2.10 that server and browser share, and ours where the spec gives none. */
export const BILLING_MESSAGES = {
  noTransactions: 'No GridCredits transactions have been found',
  noInvoices: 'No invoices.',
  /** A blank line-item type shows as this (spec 3 §3.10). */
  supportRequest: 'Support Request',

  // Ours: the spec names these refusals and failures without giving their words.
  dateFormat: (field: 'start' | 'end') => `${field} must be a date as YYYY-MM-DD.`,
  startAfterEnd: 'The start date must not be after the end date.',
  afterToday: (field: 'start' | 'end') => `The ${field} date must not be after today.`,
  itemsFailed: 'Failed to load GridCredits transactions.',
  monthlyFailed: 'Failed to load the GridCredits monthly summary.',
  invoicesFailed: 'Failed to load invoices.',
  downloadFailed: 'Failed to start the download.',
  invoiceNotFound: 'No such invoice in your organisation.',
  markPaidFailed: 'Failed to change the paid status of the invoice.',
  markPaidOperatorOnly: "Only the platform's billing administrators, who issue the invoices, can mark an invoice paid.",
  markedPaid: 'Invoice marked as paid',
  markedUnpaid: 'Invoice marked as unpaid',
  downloadPathRefused: 'A download link can only be made for a billing CSV or an invoice PDF.',
  /** A used, expired or mismatched download link (401). */
  downloadLinkInvalid: 'This download link has expired or was already used. Start the download again from the console.',
} as const;
