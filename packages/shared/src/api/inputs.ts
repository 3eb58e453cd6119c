import { z } from 'zod';

/**
 * The bounded inputs every endpoint is built from. Both databases and every future route inherit
 * them: ids fit a 32-bit integer column, times fit a JavaScript date, lists and strings have a size.
 */

/** The largest id a record can have (a signed 32-bit integer, PostgreSQL's `integer`). */
export const MAX_ID = 2_147_483_647;
/** Epoch seconds accepted anywhere (1970 to the start of 2100): wider than any fleet's data. */
export const MAX_EPOCH_S = 4_102_444_800;
/** Most items a list in a request may hold, unless its schema says fewer. */
export const MAX_LIST = 10_000;

/** What a text field over its length limit is answered with (its own message, never the field's "required" one). */
export const tooLongMessage = (field: string, max: number) => `${field} can be at most ${max} characters.`;

/** An empty query value (`start=`) is a missing one, never 0. */
const blankIsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Registry of what an id names: the access-control matrix reads it to find another organisation's record. */
export const idResources = z.registry<{ resource: string }>();

/** A record's id in a path or query: a whole number from 1 to 2147483647, named in the message. */
export function recordId(what: string, field = `The ${what} id`) {
  const message = `${field} must be a whole number from 1 to ${MAX_ID}.`;
  const schema = z.preprocess(blankIsMissing, z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_ID, message));
  idResources.add(schema, { resource: what });
  return schema;
}

/** A record's id in a JSON body (a number, not a string). */
export function bodyId(field: string) {
  const message = `${field} must be whole numbers from 1 to ${MAX_ID}.`;
  return z.number({ error: message }).int(message).min(1, message).max(MAX_ID, message);
}

/** Epoch seconds in a query: a whole number within 1970 to 2100; an empty value is missing. */
export function epochSeconds(name: string) {
  const message = `${name} must be epoch seconds from 0 to ${MAX_EPOCH_S}.`;
  return z.preprocess(blankIsMissing, z.coerce.number({ error: message }).int(message).min(0, message).max(MAX_EPOCH_S, message));
}

/** A whole number in a query within [min, max]; an empty value is missing (so the default applies). */
export function queryInt(name: string, min: number, max: number) {
  const message =
    max === Number.MAX_SAFE_INTEGER ? `${name} must be a whole number of at least ${min}.` : `${name} must be a whole number from ${min} to ${max}.`;
  return z.preprocess(blankIsMissing, z.coerce.number({ error: message }).int(message).min(min, message).max(max, message));
}

/** `limit` and `offset` of every paged list (spec page sizes up to 200; the dashboard asks 10000). */
export function pagingFields(maxLimit = MAX_LIST, defaultLimit = 10) {
  return {
    limit: queryInt('limit', 1, maxLimit).default(defaultLimit),
    offset: queryInt('offset', 0, MAX_ID).default(0),
  };
}

/** Sort directions of every sortable list. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `sort` (one of the list's keys, default `initial`) and `order` (asc or desc, default asc) of a sortable list. */
export function sortFields<const K extends readonly [string, ...string[]]>(keys: K, initial: K[number]) {
  return {
    sort: z.enum(keys, { error: `sort must be one of ${keys.join(', ')}.` }).default(initial as never),
    order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc.' }).default('asc'),
  };
}

/** A list in a request body with its maximum size, named in the message. */
export function boundedList<T extends z.ZodType>(item: T, field: string, max = MAX_LIST) {
  return z.array(item, { error: `${field} must be a list.` }).max(max, `${field} can hold at most ${max} items.`);
}

/**
 * C0 control characters and DEL, except tab, line feed and carriage return: a NUL stops PostgreSQL
 * and the others have no place in a name, a search or a password.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The path (`body.name`, `query.f`) of the first string holding a control character, or null. */
export function findControlCharacter(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (CONTROL.test(k)) return path;
    const found = findControlCharacter(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The refusal of a string with a control character, naming where it was. */
export const controlCharacterMessage = (path: string) => `${path} must not contain control characters.`;

const DAY = 86_400;
/**
 * The longest range a series may cover at each interval: enough for every graph the console draws
 * (a day of 30 s, a month of 5 min, a year of hours, ten years of days), and small enough that one
 * request can never hold the server.
 */
export const SERIES_SPANS: Readonly<Record<number, { seconds: number; label: string }>> = {
  30: { seconds: 2 * DAY, label: '2 days' },
  300: { seconds: 31 * DAY, label: '31 days' },
  3600: { seconds: 366 * DAY, label: '366 days' },
  86400: { seconds: 3660 * DAY, label: '10 years' },
};

/** Null when [start, end) fits the interval's bound; otherwise the message naming the bound. */
export function seriesSpanError(start: number, end: number, interval: number): string | null {
  const span = SERIES_SPANS[interval];
  if (!span || end - start <= span.seconds) return null;
  return `A series at ${interval}-second interval can cover at most ${span.label}: shorten the range or choose a longer interval.`;
}

/** For a series query's superRefine: end after start, and the range within the interval's bound. */
export function refineSeriesRange(q: { start: number; end?: number; interval: number }, ctx: z.RefinementCtx): void {
  // A field that failed its own check has said what is wrong; the range is not judged on top of it.
  const valid = (t: unknown) => Number.isInteger(t) && (t as number) >= 0 && (t as number) <= MAX_EPOCH_S;
  if (q.end === undefined || !valid(q.start) || !valid(q.end)) return;
  if (q.end <= q.start) ctx.addIssue({ code: 'custom', message: 'end must be after start.', path: ['end'] });
  const message = seriesSpanError(q.start, q.end, q.interval);
  if (message) ctx.addIssue({ code: 'custom', message, path: ['end'] });
}
