import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './request.ts';

/**
 * The signed-in account: most areas read it (permissions, time zone, name), so it lives below them
 * rather than in the account area.
 */
/** The account call's contract (zod), loaded with the first call: the login page does without it (issue 30). */
export const loadAccountContract = () => import('@vpp/shared/account/get');

export const accountQueryOptions = queryOptions({
  queryKey: ['account'],
  queryFn: async () => {
    const { accountGet } = await loadAccountContract();
    return (await call(accountGet, {}, { errorToast: 'Failed to load user account details' })).data;
  },
  staleTime: 60_000,
});

export const useAccount = () => useQuery(accountQueryOptions);

/** The browser's IANA time zone. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The account's zone for dates, or the browser's while the account loads. */
export function useTimeZone(): string {
  return useAccount().data?.timezone ?? browserTimeZone();
}
