import { useMutation, useQuery } from '@tanstack/react-query';
import { kitDesignerEndpoints as E } from '@vpp/shared/kit-designer/endpoints';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import type { KitDesign, KitEmailBody } from '@vpp/shared/kit-designer/schemas';
import { MESSAGES } from '@vpp/shared/messages';
import { useEffect } from 'react';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

export const kitKeys = { options: ['kit-designer', 'options'] as const };

/**
 * The whole catalogue, asked only by a user who may design kits; retried on a failure the server
 * or the network may get over (spec 2 §7), not on a refusal, and one toast once the retries are spent.
 */
export function useKitOptions(enabled: boolean) {
  const q = useQuery({
    queryKey: kitKeys.options,
    queryFn: async () => (await call(E.options, {}, { quiet: true })).data,
    enabled,
    retry: (failures, error) => failures < 3 && !(error instanceof ApiError && error.status < 500),
    retryDelay: (attempt) => 500 * 2 ** attempt,
    staleTime: 10 * 60_000,
  });
  useEffect(() => {
    if (q.isError) toast('error', KIT_MESSAGES.loadFailed, MESSAGES.tryAgainLater);
  }, [q.isError]);
  return q;
}

/** Checks a design: the order, or the errors per field. */
export function useCheckDesign() {
  return useMutation({
    mutationFn: async (design: KitDesign) => (await call(E.design, { body: design }, { errorToast: KIT_MESSAGES.validateFailed })).data,
  });
}

/** E-mails the order to the user and the organisation's ordering address. */
export function useEmailOrder() {
  return useMutation({
    mutationFn: async (body: KitEmailBody) =>
      (await call(E.email, { body }, { errorToast: KIT_MESSAGES.emailFailed, success: { title: KIT_MESSAGES.emailSent } })).data,
  });
}
