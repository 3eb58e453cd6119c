/** The customer app's refusals (issue 34 item 12). */
export const CUSTOMER_APP_MESSAGES = {
  badNodeToken: 'The customer app token is not valid.',
  optOutClosed: 'This event has ended or was cancelled: it can no longer be opted out of.',
} as const;
