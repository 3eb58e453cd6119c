import type { z } from 'zod';
import type { PermissionRequirement } from '../permissions/registry.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call: 'user' (the default) a signed-in user or API key; 'session' a signed-in session only,
 * not an API key; 'mfa' also a session still waiting for its second factor; 'public' anyone.
 */
export type EndpointAuth = 'user' | 'session' | 'mfa' | 'public';

/**
 * Whether an operation only shows data ('read') or changes anything ('write': a record, a setting,
 * a message sent, a job queued). An API key calls a write only with a write scope (see
 * `writeAllowed` in the permission registry), so a key of view scopes changes nothing.
 */
export type EndpointAccess = 'read' | 'write';

/**
 * One operation of the API: the contract the server registers and the browser calls. Paths are the
 * spec's, with `:name` for path parameters.
 */
export interface Endpoint {
  method: HttpMethod;
  path: string;
  summary: string;
  auth?: EndpointAuth;
  /** Read or write: every operation says which (a POST that only checks its input may read). */
  access: EndpointAccess;
  /** The permission the operation needs; null for any signed-in caller. Unused when public. */
  permission: PermissionRequirement | null;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 reply; absent when the operation answers something other than JSON (a page, a redirect). */
  reply?: z.ZodType;
  /** Left out of the OpenAPI document (pages and redirects rather than API calls). */
  hidden?: boolean;
  /**
   * A file the browser opens as a link (CSV, PDF): besides the bearer, the route accepts `?token=`, a
   * single-use download token bound to the user, the organisation and this exact path and query.
   */
  download?: boolean;
  /** A heavy read (long-range series, maps): run under each user's fair share of the server (docs/performance.md). */
  heavy?: boolean;
}

/** Keeps an endpoint's literal types (path, method, schemas) for the server's and browser's typing. */
export const endpoint = <const E extends Endpoint>(e: E): E => e;

type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the browser passes to call an endpoint: its path parameters, query and body. */
export type CallArgs<E extends Endpoint> = (E['params'] extends z.ZodType ? { params: InputOf<E['params']> } : { params?: undefined }) &
  (E['query'] extends z.ZodType ? { query?: InputOf<E['query']> } : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: InputOf<E['body']> } : { body?: undefined });

/** The parsed reply of an endpoint. */
export type ReplyOf<E extends Endpoint> = OutputOf<E['reply']>;
/** The reply a server handler returns (before the schema serialises it). */
export type ReplyInputOf<E extends Endpoint> = InputOf<E['reply']>;

/** Serialises query values as the server reads them: arrays comma-joined, undefined and null left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The URL of one call: path parameters filled in (encoded) and the query appended. */
export function endpointUrl(e: Endpoint, args: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): string {
  const path = e.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const v = args.params?.[name];
    if (v === undefined || v === null) throw new Error(`${e.method} ${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  return path + queryString(args.query);
}

/** An area's endpoints, each stamped with the area's name (its tag in the OpenAPI document). */
export function defineEndpoints<const D extends Record<string, Endpoint>>(area: string, defs: D): { [K in keyof D]: D[K] & { area: string } } {
  return Object.fromEntries(Object.entries(defs).map(([k, e]) => [k, { ...e, area }])) as never;
}
