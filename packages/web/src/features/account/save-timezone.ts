import { useMutation } from '@tanstack/react-query';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

/**
 * Saves the account's time zone (the main shell offers it when the browser's differs). Its contract
 * loads with the first save: the main shell opens without the account area's endpoints, which share
 * a chunk of about 200 KB with the password and sign-in contracts (issue 30 item 2).
 */
export function useSaveTimezone() {
  return useMutation({
    mutationFn: async (timezone: string) =>
      call((await import('@vpp/shared/account/endpoints')).accountEndpoints.setTimezone, { query: { timezone } }, { errorToast: 'Failed to update settings.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions.queryKey }),
  });
}
