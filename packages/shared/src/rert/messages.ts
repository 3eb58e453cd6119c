/** The exact RERT texts of spec 3 §2.5 and §8, and the server's own where the spec gives none. */
export const RERT_MESSAGES = {
  loadFailed: 'Failed to load RERT dispatch requests.',
  executed: 'RERT Dispatch successfully executed',
  cancelled: 'RERT Dispatch successfully cancelled.',
  rescheduled: 'RERT Dispatch successfully rescheduled',
  executeFailed: 'Failed to execute RERT Dispatch.',
  cancelFailed: 'Failed to cancel RERT dispatch.',
  rescheduleFailed: 'Failed to reschedule RERT dispatch.',
  cancelConfirm: 'Are you sure want to cancel this dispatch?',
  rescheduleConfirm: 'Are you sure you want to reschedule this dispatch?',

  // The server's own texts.
  /** RERT asks the reserve to deliver: a discharge, or a lockout holding the batteries (spec 3 §4.2's default power 0). */
  dischargeOnly: 'A RERT dispatch discharges: realPowerP must be 0 or less.',
  onlyUpcoming: 'Only an upcoming RERT dispatch can be changed: this one has already started.',
  alreadyCancelled: 'This RERT dispatch has already been cancelled.',
} as const;
