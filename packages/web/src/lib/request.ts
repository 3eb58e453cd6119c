import { type CallArgs, type Endpoint, endpointUrl, type ReplyOf } from '@vpp/shared/api/endpoint';
import { MESSAGES } from '@vpp/shared/messages';
import type { z } from 'zod';
import { session } from './session.ts';
import { clearToasts, toast } from './toasts.ts';

/** Where the API answers: the same origin unless the build names another. */
export const API_BASE = (import.meta.env.VITE_API_BASE_URL as string | undefined) ?? '';

/** A failed call: the HTTP status, and the server's error code and message when it gave them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** A reply's zod schema: the full build's, or zod/mini's where the login page needs one without the full zod (meta.json). */
export type ReplySchema = z.core.$ZodType & { parse(data: unknown): unknown };

export interface RequestOptions<S extends ReplySchema | undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The zod schema of the reply: the reply is parsed with it. */
  schema?: S;
  /** false for calls made without the bearer token (login). */
  auth?: boolean;
  /** A toast shown when the call succeeds. */
  success?: { title: string; message?: string };
  /** A toast shown when the call fails, followed by 'Please try again later.' */
  errorToast?: string;
  /** Do not toast the server's ERROR message: the caller shows it where it belongs (a form field). */
  quiet?: boolean;
  /**
   * A 404 is the page's to say (a detail page whose record is not there, or not the caller's): no
   * toast for it. Pair with `refreshUnlessNotFound` so the page stops asking.
   */
  notFoundInPage?: boolean;
  /** Set on the one retry after a 401 was answered by a token refresh. */
  retried?: boolean;
}

/**
 * The one request layer (spec 1 §7): bearer token, cookies, 401 handling (expired session or the
 * two-factor state), the 403 toast, 204 as null, the call's error toast and ERROR replies' data.message
 * as error toasts.
 */
export async function request<S extends ReplySchema | undefined = undefined>(
  path: string,
  opts: RequestOptions<S> = {},
): Promise<S extends ReplySchema ? z.output<S> : unknown> {
  const token = opts.auth === false ? null : session.token();
  // An action (anything but a read) tried again clears the toasts its last try left: no stale error
  // beside the success that follows. Its toasts carry its name, and the same toast is not stacked.
  const method = opts.method ?? 'GET';
  const group = method === 'GET' ? '' : `${method} ${path.split('?')[0]}`;
  if (group) clearToasts(group);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'include',
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    // The reply is read whole here: a page left after the headers came aborts the body, and that is
    // no answer either (read as an empty success it signed the user out of the next page).
    text = res.status === 204 ? '' : await res.text();
  } catch (err) {
    if (opts.errorToast) toast('error', opts.errorToast, MESSAGES.tryAgainLater, group);
    throw new ApiError(0, 'network', 'The server could not be reached.', err);
  }
  const body = parseJson(text);
  const err = body as { status?: string; error?: string; message?: string; data?: { message?: string } } | null;
  const message = err?.data?.message ?? err?.message ?? res.statusText;

  if (res.status === 401 && opts.auth !== false) {
    if (err?.error === 'mfa_failure') session.set({ loginStatus: 'TOTP_REQUIRED' });
    else if (token && !opts.retried) {
      // An access token the server no longer takes: the refresh cookie gets a new one and the call
      // is made again. Only the refresh's own refusal (a 401) ends the session, which it does itself.
      if (await session.refresh()) return request(path, { ...opts, retried: true });
    } else if (token) {
      // Refused with the token still stored: it has expired. A token since replaced or cleared (a
      // refresh, a sign-out under way) says nothing of the session now.
      if (session.token() === token) session.reset({ expired: true });
    } else session.set({ loginStatus: 'LOGGED_OUT' });
    throw new ApiError(401, err?.error ?? null, message, body);
  }
  if (res.status === 403) {
    toast('warning', MESSAGES.notAuthorizedTitle, MESSAGES.notAuthorized);
    throw new ApiError(403, 'forbidden', MESSAGES.notAuthorized, body);
  }
  if (res.status === 404 && opts.notFoundInPage) throw new ApiError(404, err?.error ?? null, message, body);
  if (res.status >= 400 || err?.status === 'ERROR') {
    if (opts.errorToast) toast('error', opts.errorToast, MESSAGES.tryAgainLater, group);
    // The server's own words too, when they say what the user can change (a 4xx), unless the
    // caller shows them on a form field; after the call's toast a 5xx adds nothing to it.
    if (err?.status === 'ERROR' && !opts.quiet && (!opts.errorToast || res.status < 500)) toast('error', message, undefined, group);
    throw new ApiError(res.status, err?.error ?? null, message, body);
  }
  if (opts.success) toast('success', opts.success.title, opts.success.message, group);
  if (body === null || !opts.schema) return body as never;
  return opts.schema.parse(body) as never;
}

/** A reply's JSON; null for an empty or non-JSON body (a proxy's error page). */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** How a call is made beyond its contract: toasts, quietness, and (rarely) leaving the bearer out. */
export type CallOptions = Pick<RequestOptions<undefined>, 'success' | 'errorToast' | 'quiet' | 'auth' | 'notFoundInPage'>;

/** A 404: no such record, or another organisation's. */
export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/**
 * A query's refetchInterval that stops once the record answered 404 (the page then says so, once,
 * instead of asking again every period): `every` is a period, or one read from the data.
 */
export function refreshUnlessNotFound<D>(every: number | ((data: D) => number | false)) {
  return (q: { state: { error: unknown; data: D | undefined } }): number | false => {
    if (isNotFound(q.state.error)) return false;
    if (typeof every === 'number') return every;
    return q.state.data === undefined ? false : every(q.state.data);
  };
}

/**
 * Calls one endpoint of the shared contract: method and path from its definition, path parameters
 * filled in, the reply parsed with its schema. Public endpoints are called without the bearer token.
 */
export function call<E extends Endpoint>(e: E, args: CallArgs<E>, opts: CallOptions = {}): Promise<ReplyOf<E>> {
  const a = args as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return request(endpointUrl(e, a), {
    ...opts,
    method: e.method,
    body: a.body,
    schema: e.reply,
    auth: opts.auth ?? e.auth !== 'public',
  }) as Promise<ReplyOf<E>>;
}
