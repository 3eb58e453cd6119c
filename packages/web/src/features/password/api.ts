import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ChangePasswordBody, ForgotPasswordBody } from '@vpp/shared/account/password-schemas';
import { passwordEndpoints as E } from '@vpp/shared/password/endpoints';
import { z } from 'zod';
import { call } from '../../lib/request.ts';
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
    queryFn: () => call(E.verifyToken, { query: { token } }, { quiet: true }),
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
    mutationFn: (body: ForgotPasswordBody) => call(E.requestReset, { body }, { quiet: true }),
  });
}

export function useChangePassword(token: string) {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call(E.change, { query: { token }, body }, { quiet: true }),
  });
}

export function useDisavow(token: string) {
  return useMutation({
    mutationFn: () => call(E.disavow, { query: { token } }, { quiet: true }),
  });
}
