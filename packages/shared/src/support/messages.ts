/** The support page's texts, shared by the server's refusals and the browser's form. */
export const SUPPORT_MESSAGES = {
  subjectRequired: 'Enter a subject.',
  subjectTooLong: 'The subject can have at most 150 characters.',
  subjectOneLine: 'The subject must be a single line.',
  categoryRequired: 'Choose what the request is about.',
  descriptionRequired: 'Describe what happened and what you need.',
  descriptionTooLong: 'The description can have at most 5000 characters.',
  nameRequired: 'Enter your name.',
  nameTooLong: 'The name can have at most 200 characters.',
  emailInvalid: 'Enter an email address we can reply to.',
  phoneInvalid: 'Enter a phone number of digits, spaces and + ( ) . -, at most 30 characters.',
  sentTitle: 'Request sent',
  frameTitle: 'Support contact form',
  openInNewWindow: 'Open the contact form in a new window',
  frameHint: 'If the form does not show below, the help desk does not allow it inside the console: open it in a new window.',
  intro: 'Ask our support team for help. They reply by email, and each request gets a reference to quote.',
  noRequests: 'You have not sent any support requests yet.',
} as const;

/** The 429 of one request too many in an hour, with when the next one can go. */
export const supportRateLimitMessage = (max: number, minutes: number) =>
  `You can send at most ${max} support request${max === 1 ? '' : 's'} an hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** The confirmation after sending, naming the reference to quote. */
export const supportSentMessage = (reference: string, email: string) =>
  `Your request ${reference} has been sent to our support team. They will reply to ${email}; quote ${reference} in any follow-up.`;
