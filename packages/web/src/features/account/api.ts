import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiKey, CreateApiKeyBody } from '@vpp/shared/account/api-keys';
import { accountEndpoints as A, apiKeyEndpoints as K } from '@vpp/shared/account/endpoints';
import type { InlineChangeBody } from '@vpp/shared/account/password-schemas';
import type { AlertEmailFrequency } from '@vpp/shared/constants';
import { passwordEndpoints as P } from '@vpp/shared/password/endpoints';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';

export const accountKeys = {
  account: accountQueryOptions.queryKey,
  mfaSettings: ['account', 'mfa-settings'] as const,
  apiKeys: ['account', 'api-keys'] as const,
};

export function useSaveAlertEmailFrequency() {
  return useMutation({
    mutationFn: (frequency: AlertEmailFrequency) => call(A.setAlertEmail, { query: { frequency } }, { errorToast: 'Failed to update settings.' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions.queryKey }),
  });
}

/** The inline change; the caller shows a refusal on the confirmation field (spec 1 §5). */
export function useInlineChangePassword() {
  return useMutation({
    mutationFn: (body: InlineChangeBody) => call(P.inlineChange, { body }, { quiet: true }),
  });
}

export const mfaSettingsQueryOptions = queryOptions({
  queryKey: accountKeys.mfaSettings,
  queryFn: async () => (await call(A.mfaSettings, {}, { errorToast: 'Failed to load existing MFA settings.' })).data,
});

export const useMfaSettings = (enabled: boolean) => useQuery({ ...mfaSettingsQueryOptions, enabled });

export function useSaveCodePreference() {
  return useMutation({
    mutationFn: (codePreference: 'APP') =>
      call(
        A.setCodePreference,
        { body: { codePreference } },
        { errorToast: 'Unable to update your MFA settings.', success: { title: 'MFA settings successfully updated.' } },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaSettingsQueryOptions.queryKey }),
  });
}

/** The account password as the API-key calls take it: base64 of its UTF-8 bytes (spec 1 §7). */
export const encodePassword = (password: string) => btoa(String.fromCharCode(...new TextEncoder().encode(password)));

export const apiKeysQueryOptions = queryOptions({
  queryKey: accountKeys.apiKeys,
  queryFn: async () => (await call(K.list, {}, { errorToast: 'Failed to load your API keys.' })).data.keys,
});
export const useApiKeys = () => useQuery(apiKeysQueryOptions);

/** Creates a key; refusals (password_rejected, ip_parse_failure) go to the caller's form. */
export function useCreateApiKey() {
  return useMutation({
    mutationFn: async ({ password, ...body }: CreateApiKeyBody & { password: string }) =>
      (await call(K.create, { query: { password: encodePassword(password) }, body }, { quiet: true })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions.queryKey }),
  });
}

/** Revokes a key: it shows as REVOKING while the call runs, then REVOKED (spec 1 §4). */
export function useRevokeApiKey() {
  const setStatus = (keyId: number, status: ApiKey['status']) =>
    queryClient.setQueryData(apiKeysQueryOptions.queryKey, (keys) => keys?.map((k) => (k.keyId === keyId ? { ...k, status } : k)));
  return useMutation({
    mutationFn: ({ keyId, password }: { keyId: number; password: string }) =>
      call(K.revoke, { params: { id: keyId }, query: { password: encodePassword(password) } }, { quiet: true }),
    onMutate: ({ keyId }) => setStatus(keyId, 'REVOKING'),
    onError: (_err, { keyId }) => setStatus(keyId, 'VALID'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions.queryKey }),
  });
}
