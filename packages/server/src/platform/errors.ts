import { MESSAGES } from '@vpp/shared';

/** An error that becomes an HTTP reply: status, a machine code and a message a person can act on. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON body of every failure (`status: 'ERROR'`, the code, and `data.message` for toasts). */
export function errorBody(code: string, message: string) {
  return { status: 'ERROR' as const, error: code, message, data: { message } };
}

export const badRequest = (message: string, code = 'bad_request') => new ApiError(400, code, message);
export const unauthorized = (code = 'unauthorized', message = 'Sign in to continue.') => new ApiError(401, code, message);
export const forbidden = () => new ApiError(403, 'forbidden', MESSAGES.notAuthorized);
export const notFound = (what: string) => new ApiError(404, 'not_found', `No such ${what}.`);
export const tooManyRequests = (message: string) => new ApiError(429, 'too_many_requests', message);
