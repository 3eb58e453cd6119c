import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type ChangePasswordBody, type ForgotPasswordBody, messageReply, verifyTokenReply } from '@vpp/shared';
import { z } from 'zod';
import { request } from '../../lib/request.ts';
import { param, useSearchState } from '../../lib/search-state.ts';
import { useSession } from '../../lib/session.ts';

const tokenSearch = z.object({ token: param.text() });

/** The reset link's token (?token=), '' when there is none. */
export const useResetToken = () => useSearchState(tokenSearch)[0].token;

export const passwordKeys = {
  token: (token: string) => ['password', 'token', token] as const,
};

/** Whether a reset link can still set a password (no sign-in needed). */
export const verifyTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: passwordKeys.token(token),
    queryFn: () => request('/password/change/verify_token', { query: { token }, auth: false, quiet: true, schema: verifyTokenReply }),
    staleTime: Number.POSITIVE_INFINITY,
    enabled: token !== '',
  });
/**
 * Waits for the session boot to settle: booting without a session resets it, which empties the
 * query cache, and a query in flight at that moment would never report its answer.
 */
export function useVerifyToken(token: string) {
  const { loginStatus } = useSession();
  const options = verifyTokenQueryOptions(token);
  return useQuery({ ...options, enabled: options.enabled !== false && loginStatus !== 'FETCHING' });
}

export function useRequestReset() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => request('/password/reset', { method: 'POST', body, auth: false, quiet: true, schema: messageReply }),
  });
}

export function useChangePassword(token: string) {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      request('/password/change', { method: 'POST', query: { token }, body, auth: false, quiet: true, schema: messageReply }),
  });
}

export function useDisavow(token: string) {
  return useMutation({
    mutationFn: () => request('/password/reset/disavow', { method: 'POST', query: { token }, auth: false, quiet: true, schema: messageReply }),
  });
}
