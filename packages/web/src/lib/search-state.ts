import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';

/** A value the setter writes: null or undefined removes the parameter, as does ''; an array is written comma-separated (even when empty). */
type Written<T> = { [K in keyof T]?: T[K] | null };

/** The shape useSearchState takes: each field parses the parameter's raw string (undefined when absent). */
export type SearchSchema = z.ZodObject<Record<string, z.ZodType<unknown, string | undefined>>>;

export interface SetSearchOptions {
  /** Replace the history entry instead of pushing one (typing, normalising the URL). */
  replace?: boolean;
}

function parse<S extends SearchSchema>(schema: S, params: URLSearchParams): z.output<S> {
  const state: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const raw = params.get(key) ?? undefined;
    const parsed = field.safeParse(raw);
    // A parameter that does not parse counts as absent: the field's default then applies.
    state[key] = parsed.success ? parsed.data : field.safeParse(undefined).data;
  }
  return state as z.output<S>;
}

/** How the setter writes a value into the query string; null when it removes the parameter. */
export function searchValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/**
 * The page's query string as typed state: each parameter parsed by its field of `schema` (with the
 * field's default when absent or invalid), and a setter that merges a patch into the current query
 * (other parameters stay) and pushes a history entry, or replaces it with `{ replace: true }`.
 * Paging, tabs, filters and graph settings live here so that every screen can be linked and reloaded.
 */
export function useSearchState<S extends SearchSchema>(
  schema: S,
): [state: z.output<S>, set: (patch: Written<z.output<S>>, opts?: SetSearchOptions) => void, params: URLSearchParams] {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' value
  const state = useMemo(() => parse(schema, params), [schema, query]);
  const set = (patch: Written<z.output<S>>, opts: SetSearchOptions = {}) =>
    setParams(
      (p) => {
        for (const [key, value] of Object.entries(patch)) {
          const v = searchValue(value);
          if (v === null) p.delete(key);
          else p.set(key, v);
        }
        return p;
      },
      { replace: opts.replace ?? false },
    );
  return [state, set, params];
}

/** Field builders for search schemas: each takes the raw parameter (undefined when absent). */
export const param = {
  /** Free text; '' when absent. */
  text: () =>
    z
      .string()
      .optional()
      .transform((v) => v ?? ''),
  /** 'true' or 'false'; `fallback` when absent, false for any other value. */
  bool: (fallback: boolean) =>
    z
      .string()
      .optional()
      .transform((v) => (v === undefined ? fallback : v === 'true')),
  /** One of `values`; `fallback` when absent or unknown. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
    z
      .string()
      .optional()
      .transform((v): T[number] => ((values as readonly string[]).includes(v ?? '') ? (v as T[number]) : fallback)),
  /** Comma-separated whole numbers; [] when absent. */
  ids: () =>
    z
      .string()
      .optional()
      .transform((v) => (v ?? '').split(',').filter(Boolean).map(Number)),
};
