/** The exact texts of spec 1 §8 that server and browser share. */
export const MESSAGES = {
  loginFailed: 'Incorrect username or password. Please try again.',
  sessionExpired: 'Your session has expired. Please log in again.',
  codeLength: 'Your code should be 6 digits.',
  codeRejected: '6-digit code rejected. Please try again.',
  codeInvalid: 'Invalid 6-digit code.',
  notAuthorizedTitle: 'Not Authorized',
  notAuthorized: 'You do not have the required permissions to perform this action.',
  tryAgainLater: 'Please try again later.',
  notFound: 'This page could not be found.',
  backToDashboard: 'Back to Dashboard',
  timezoneMismatch: 'Your user configured timezone differs from your browsers current timezone',
  accountLoadFailed: 'Failed to load user account details',
  captchaRequired: 'Please complete the human verification.',
  captchaRejected: 'The human verification failed or expired. Please try again.',
  /** Not the spec's: a sign-in to an account that has failed often from elsewhere needs a costlier captcha, asked for that login. */
  captchaHarder: 'This account has had many failed logins. Please complete the human verification again; it will take a little longer.',
  tooManyAttempts: 'Too many login attempts. Please wait {minutes} minutes and try again.',
  /** Not the spec's: the 409 of a save that another request made first (the same unique name at the same moment). */
  savedMeanwhile: 'Another request saved the same record at the same moment. Reload and try again.',
} as const;
