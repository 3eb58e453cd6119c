import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { MESSAGES } from '@vpp/shared/messages';
import { planEndpoints as E } from '@vpp/shared/plans/endpoints';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import type { PlanErrors } from '@vpp/shared/plans/rules';
import type { Plan, PlanListQuery, SavePlanBody } from '@vpp/shared/plans/schemas';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

/** Query keys of the plans area: every save invalidates `all`. */
export const planKeys = {
  all: ['plans'] as const,
  list: (q: PlanListQuery) => ['plans', 'list', q] as const,
  byCode: (code: string) => ['plans', 'code', code] as const,
  networks: ['plans', 'networks'] as const,
};

/** The organisation's plans, filtered, sorted and paged as the URL says. */
export function usePlans(q: PlanListQuery, enabled = true) {
  return useQuery({
    queryKey: planKeys.list(q),
    queryFn: async () => (await call(E.list, { query: q }, { errorToast: PLAN_MESSAGES.listFailed })).data,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A plan by its code (the routes name plans by code). A 404 is left to the page; other failures toast 'Unable to fetch plan.'. */
export const planByCodeQueryOptions = (code: string) =>
  queryOptions({
    queryKey: planKeys.byCode(code),
    queryFn: async () => (await call(E.byCode, { params: { planCode: code } }, { errorToast: PLAN_MESSAGES.loadFailed, notFoundInPage: true })).data,
    retry: false,
  });
export const usePlanByCode = (code: string) => useQuery(planByCodeQueryOptions(code));

/** The distribution networks a plan can be for (they do not change while the app runs). */
export function useOperationalNetworks() {
  return useQuery({
    queryKey: planKeys.networks,
    queryFn: async () => (await call(E.networks, {})).data.networks,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** What a refused save carries: the server's messages by field path and those of no one field. */
export function planErrorsOf(err: unknown): PlanErrors | null {
  // 400: the form's mistakes; 409: a name or code another plan has (or took at the same moment).
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 409)) return null;
  const data = (err.body as { data?: { message?: string; errors?: Record<string, string>; non_field_errors?: string[] } } | null)?.data;
  if (!data) return null;
  const errors = data.errors ?? {};
  const nonField = data.non_field_errors ?? [];
  // A 400 that names no field still says what is wrong: it goes at the top of the form.
  return { errors, non_field_errors: nonField.length || Object.keys(errors).length ? nonField : [data.message ?? PLAN_MESSAGES.saveFailed] };
}

/**
 * The plan form's save: creates (no uid) or updates, then goes to the plan's page (its code may have
 * changed). Answers the server's refusal for the form to show; any other failure toasts 'Unable to
 * save your plan.' (a 403 has had its own warning).
 */
export function usePlanSave(uid: number | undefined, onSaved: (plan: Plan) => void) {
  const save = useSavePlan();
  const onSave = async (body: SavePlanBody): Promise<PlanErrors | null> => {
    try {
      onSaved(await save.mutateAsync(uid === undefined ? body : { ...body, uid }));
      return null;
    } catch (err) {
      const refused = planErrorsOf(err);
      if (!refused && !(err instanceof ApiError && [401, 403].includes(err.status))) toast('error', PLAN_MESSAGES.saveFailed, MESSAGES.tryAgainLater);
      return refused;
    }
  };
  return { onSave, saving: save.isPending };
}

/**
 * Creates (no uid) or updates a plan. Quiet: the form shows a refusal's messages on its fields and
 * warns once; the page toasts 'Unable to save your plan.' for any other failure.
 */
export function useSavePlan() {
  return useMutation({
    mutationFn: async (body: SavePlanBody) =>
      body.uid === undefined
        ? (await call(E.create, { body }, { quiet: true, success: { title: PLAN_MESSAGES.created } })).data
        : (await call(E.update, { params: { id: body.uid }, body }, { quiet: true, success: { title: PLAN_MESSAGES.saved } })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
