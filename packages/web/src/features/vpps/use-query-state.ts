import { useSearchParams } from 'react-router';

/**
 * The page's query string as state: `get` reads a parameter, `set` writes several at once (null or
 * '' removes one) and keeps the rest, so paging, tabs and filters stay linkable.
 */
export function useQueryState() {
  const [params, setParams] = useSearchParams();
  return {
    get: (key: string) => params.get(key) ?? '',
    set: (patch: Record<string, string | null>, opts: { replace?: boolean } = {}) =>
      setParams(
        (p) => {
          for (const [k, v] of Object.entries(patch)) {
            if (v === null || v === '') p.delete(k);
            else p.set(k, v);
          }
          return p;
        },
        { replace: opts.replace ?? false },
      ),
  };
}

/** The detail page of a VPP on its map tab, where creating, editing and renaming land (spec 2 §4). */
export const vppMapPath = (id: number) => `/virtual-power-plants/manage/${id}?tab=MAP&limit=10&offset=0`;
/** The edit screen, where creating a manual VPP lands. */
export const vppEditPath = (id: number) => `/virtual-power-plants/manage/${id}/edit?limit=10&offset=0`;
export const VPP_LIST_PATH = '/virtual-power-plants/manage?limit=10&offset=0';
