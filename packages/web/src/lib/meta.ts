import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './request.ts';

/** The reply's schema, with zod (zod/mini), loaded with the first call: not on the login page's first render (issue 30). */
const loadMetaReply = async () => (await import('@vpp/shared/auth/meta')).metaReply;

/** The server's /meta.json (version, demo mode, analytics, map tiles), fetched once per page load. */
export const metaQueryOptions = queryOptions({
  queryKey: ['meta'],
  queryFn: async () => request(`/meta.json?${Date.now()}`, { auth: false, schema: await loadMetaReply() }),
  staleTime: Number.POSITIVE_INFINITY,
});
export const useMeta = () => useQuery(metaQueryOptions);

/**
 * Demo mode as the served index.html says it (`<html data-demo>`, written by the server), so that
 * the login page draws its demo logins in its first render, not after /meta.json (issue 30); a page
 * served without it (Vite's development server) asks /meta.json.
 */
export function useDemo(): boolean {
  const served = document.documentElement.dataset.demo;
  const meta = useQuery({ ...metaQueryOptions, enabled: served === undefined });
  return served === undefined ? (meta.data?.demo ?? false) : served === 'true';
}
