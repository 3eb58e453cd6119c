import { MESSAGES } from '@vpp/shared/messages';

/** An error that becomes an HTTP reply: status, a machine code and a message a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** A form's refusals, carried in the reply's `data` beside the message (the plan form). */
    readonly details?: { errors?: Record<string, string>; non_field_errors?: string[] },
  ) {
    super(message);
  }
}

/** The JSON body of every failure (`status: 'ERROR'`, the code, and `data.message` for toasts). */
export function errorBody(code: string, message: string, details?: ApiError['details']) {
  return { status: 'ERROR' as const, error: code, message, data: { message, ...details } };
}

/** A 400 refusing a form: its message, the messages by field path and those of no one field. */
export const formRefused = (message: string, details: { errors: Record<string, string>; non_field_errors: string[] }) =>
  new ApiError(400, 'bad_request', message, details);

export const badRequest = (message: string, code = 'bad_request') => new ApiError(400, code, message);
export const unauthorized = (code = 'unauthorized', message = 'Sign in to continue.') => new ApiError(401, code, message);
export const forbidden = () => new ApiError(403, 'forbidden', MESSAGES.notAuthorized);
export const notFound = (what: string) => new ApiError(404, 'not_found', `No such ${what}.`);
/** The request is valid but the record's state does not allow it now (a RERT dispatch that has started). */
export const conflict = (message: string, code = 'conflict') => new ApiError(409, code, message);
export const tooManyRequests = (message: string) => new ApiError(429, 'too_many_requests', message);

/** What the framework's own failures (unparseable body or URL, wrong media type, too large) answer. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty: send a JSON object, or no Content-Type.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is too large: at most 1 MB.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length does not match the body.',
  FST_ERR_BAD_URL: 'The URL is not valid: check its percent-encoding.',
  FST_ERR_ASYNC_CONSTRAINT: 'The request could not be routed.',
};
const STATUS_MESSAGES: Record<number, string> = {
  400: 'The request is not valid.',
  404: 'Not found.',
  405: 'This method is not allowed here.',
  406: 'This reply cannot be given in the asked format.',
  413: 'The body is too large: at most 1 MB.',
  415: 'Send the body as JSON (Content-Type: application/json).',
  429: 'Too many requests: wait a moment and try again.',
};

/** The envelope of a failure the framework raised, in our words (its own can quote the input). */
export function frameworkError(status: number, code: string | undefined) {
  const message = (code && FRAMEWORK_MESSAGES[code]) ?? STATUS_MESSAGES[status] ?? 'The request is not valid.';
  return errorBody(status === 404 ? 'not_found' : status === 429 ? 'too_many_requests' : 'bad_request', message);
}
