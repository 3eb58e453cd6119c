import { queryOptions, useQuery } from '@tanstack/react-query';
import { metaReply } from '@vpp/shared/auth/meta';
import { request } from './request.ts';

/** The server's /meta.json (version, demo mode, analytics, map tiles), fetched once per page load. */
export const metaQueryOptions = queryOptions({
  queryKey: ['meta'],
  queryFn: () => request(`/meta.json?${Date.now()}`, { auth: false, schema: metaReply }),
  staleTime: Number.POSITIVE_INFINITY,
});
export const useMeta = () => useQuery(metaQueryOptions);
