import { useMutation } from '@tanstack/react-query';
import { accountEndpoints as A } from '@vpp/shared/account/endpoints';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

// A file of its own (issue 30): the signed-in shell saves the time zone, and api.ts brings the
// password change's rules with it, the password strength dictionaries of 215 KB gzipped.
export function useSaveTimezone() {
  return useMutation({
    mutationFn: (timezone: string) => call(A.setTimezone, { query: { timezone } }, { errorToast: 'Failed to update settings.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions.queryKey }),
  });
}
