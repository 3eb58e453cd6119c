import { useMutation } from '@tanstack/react-query';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

/**
 * Saves the account's time zone (the main shell offers it when the browser's differs). A file of its
 * own, its contract loaded with the first save (issue 30): the account area's api.ts brings the
 * password change's rules and their strength dictionaries (215 KB gzipped), and the account's
 * endpoints share a chunk of about 200 KB with the password and sign-in contracts.
 */
export function useSaveTimezone() {
  return useMutation({
    mutationFn: async (timezone: string) =>
      call((await import('@vpp/shared/account/endpoints')).accountEndpoints.setTimezone, { query: { timezone } }, { errorToast: 'Failed to update settings.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions.queryKey }),
  });
}
