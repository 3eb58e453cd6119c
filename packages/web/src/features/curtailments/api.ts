import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { Endpoint, ReplyOf } from '@vpp/shared/api/endpoint';
import { curtailmentEndpoints as E } from '@vpp/shared/curtailments/endpoints';
import { CURTAILMENT, CURTAILMENT_DETAIL_REFRESH_MS, CURTAILMENT_MESSAGES, CURTAILMENT_NODES_REFRESH_MS } from '@vpp/shared/curtailments/messages';
import type { CreateCurtailmentBody, CreateSetpointBody } from '@vpp/shared/curtailments/schemas';
import { eventEndpoints } from '@vpp/shared/events/endpoints';
import { MESSAGES } from '@vpp/shared/messages';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call, refreshUnlessNotFound } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

/** Query keys of the curtailment area: all under ['curtailments'], which every change invalidates. */
export const curtailmentKeys = {
  all: ['curtailments'] as const,
  list: (q: { limit: number; offset: number }) => ['curtailments', 'list', q] as const,
  setpoints: (q: { limit: number; offset: number }) => ['curtailments', 'setpoints', q] as const,
  vppSetpoints: (id: number, q: { limit: number; offset: number }) => ['curtailments', 'setpoints', 'vpp', id, q] as const,
  detail: (id: number) => ['curtailments', id, 'detail'] as const,
  part: (id: number, part: 'response' | 'prediction' | 'nodes', q?: object) => ['curtailments', id, part, q ?? {}] as const,
  constraint: (vpp: number) => ['curtailments', 'new', 'constraint', vpp] as const,
  prediction: (q: object) => ['curtailments', 'new', 'prediction', q] as const,
  events: ['curtailments', 'events'] as const,
};

/**
 * Calls one of a curtailment's endpoints: a 404 (no such curtailment, or another organisation's) is
 * left to the page; any other failure toasts the call's text of spec 3 §8, and a 4xx ERROR reply's
 * own words too (spec 3 §4).
 */
const callCurtailment = <EP extends Endpoint>(e: EP, args: object, failed: string): Promise<ReplyOf<EP>> =>
  call(e, args as never, { errorToast: failed, notFoundInPage: true });

/** A page of the organisation's curtailments, latest start first. */
export function useCurtailments(q: { limit: number; offset: number }, enabled = true) {
  return useQuery({
    queryKey: curtailmentKeys.list(q),
    queryFn: async () => (await call(E.list, { query: q }, { errorToast: CURTAILMENT_MESSAGES.loadListFailed })).data,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A page of the organisation's default setpoints, newest first. */
export function useSetpoints(q: { limit: number; offset: number }, enabled = true) {
  return useQuery({
    queryKey: curtailmentKeys.setpoints(q),
    queryFn: async () => (await call(E.setpoints, { query: q }, { errorToast: CURTAILMENT_MESSAGES.setpointsFailed })).data,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A page of one VPP's default setpoints (its setpoint changes), newest first: the newest is ACTIVE. */
export function useVppSetpoints(id: number, q: { limit: number; offset: number }) {
  return useQuery({
    queryKey: curtailmentKeys.vppSetpoints(id, q),
    queryFn: async () => (await call(E.vppSetpoints, { params: { id }, query: q }, { errorToast: CURTAILMENT_MESSAGES.setpointChangesFailed })).data,
    placeholderData: keepPreviousData,
  });
}

type DetailReply = ReplyOf<typeof E.detail>;

/**
 * A curtailment, refreshed every 8 s while in progress (spec 3 §4). An upcoming one is read again
 * when it starts (at most every 5 minutes), so a detail left open begins its 8 s refresh; a finished
 * one is read once.
 */
export function useCurtailment(id: number) {
  return useQuery({
    queryKey: curtailmentKeys.detail(id),
    queryFn: () => callCurtailment(E.detail, { params: { id } }, CURTAILMENT_MESSAGES.loadFailed),
    refetchInterval: refreshUnlessNotFound<DetailReply>((d) => {
      const now = Date.now();
      if (inProgress(d.data, now)) return CURTAILMENT_DETAIL_REFRESH_MS;
      const untilStart = d.data.request.startTime * 1000 - now;
      return d.data.cancelledAt === null && untilStart > 0 ? Math.min(Math.max(untilStart, 1000), 300_000) : false;
    }),
    retry: false,
  });
}

/** In progress (spec 3 §4): not cancelled, and now between its start and its end. */
export function inProgress(c: { cancelledAt: number | null; request: { startTime: number; duration: number } }, nowMs: number): boolean {
  const now = nowMs / 1000;
  return c.cancelledAt === null && now >= c.request.startTime && now < c.request.startTime + c.request.duration;
}

/** The measured solar and meter power of the curtailment's nodes, refreshed with the detail. */
export function useCurtailmentResponse(id: number, refreshMs: number | false, enabled: boolean) {
  return useQuery({
    queryKey: curtailmentKeys.part(id, 'response'),
    queryFn: async () => (await callCurtailment(E.response, { params: { id } }, CURTAILMENT_MESSAGES.responseFailed)).data,
    refetchInterval: refreshMs,
    enabled,
  });
}

/** The VPP's solar and meter power expected over the curtailment with no curtailment. */
export function useCurtailmentPrediction(id: number, enabled: boolean) {
  return useQuery({
    queryKey: curtailmentKeys.part(id, 'prediction'),
    queryFn: async () => (await callCurtailment(E.prediction, { params: { id } }, CURTAILMENT_MESSAGES.predictionFailed)).data,
    enabled,
  });
}

/** A page of the curtailment's nodes, refreshed every 15 s (spec 3 §4). */
export function useCurtailmentNodes(id: number, q: { limit: number; offset: number }, enabled: boolean) {
  return useQuery({
    queryKey: curtailmentKeys.part(id, 'nodes', q),
    queryFn: async () => (await callCurtailment(E.nodes, { params: { id }, query: q }, CURTAILMENT_MESSAGES.nodesFailed)).data,
    refetchInterval: CURTAILMENT_NODES_REFRESH_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The events panel's events: the organisation's upcoming and in-progress curtailments. */
export function useCurtailmentEvents(enabled: boolean) {
  return useQuery({
    queryKey: curtailmentKeys.events,
    queryFn: async () =>
      (await call(eventEndpoints.list, { query: { state: 'INCOMPLETE' } }, { errorToast: CURTAILMENT_MESSAGES.loadListFailed })).events.filter(
        (e) => e.type === CURTAILMENT,
      ),
    refetchInterval: CURTAILMENT_DETAIL_REFRESH_MS,
    enabled,
  });
}

/** The slider's minimum for a VPP (its constraint), asked for as soon as the VPP is chosen. */
export function useCurtailmentConstraint(vpp: number | null) {
  return useQuery({
    queryKey: curtailmentKeys.constraint(vpp ?? 0),
    queryFn: async () => (await call(E.constraint, { query: { powerstation: vpp ?? 0 } }, { errorToast: CURTAILMENT_MESSAGES.constraintsFailed })).data,
    enabled: vpp !== null,
  });
}

/** The New Curtailment modal's graph: the VPP's solar and meter power expected over the window. */
export function useNewCurtailmentPrediction(q: { powerstation: number; startTime: number; duration: number } | null) {
  return useQuery({
    queryKey: curtailmentKeys.prediction(q ?? {}),
    queryFn: async () =>
      (
        await call(
          E.newPrediction,
          { query: q as { powerstation: number; startTime: number; duration: number } },
          { errorToast: CURTAILMENT_MESSAGES.predictionsFailed },
        )
      ).data,
    enabled: q !== null,
    // Keep the graph while another window of the same VPP loads.
    placeholderData: (prev, prevQuery) =>
      (prevQuery?.queryKey[3] as { powerstation?: number } | undefined)?.powerstation === q?.powerstation ? prev : undefined,
  });
}

/** Whether a failure is an ERROR reply whose words the user can act on (a 4xx), rather than a fault. */
const actionable = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status < 500 && (err.body as { status?: string } | null)?.status === 'ERROR';

/**
 * Executes a curtailment (spec 3 §8): success 'Curtailment successfully executed'; an ERROR reply
 * shows its data.message; any other failure 'Failed to execute Curtailment.'.
 */
export function useCreateCurtailment() {
  return useMutation({
    mutationFn: async (body: CreateCurtailmentBody) => (await call(E.create, { body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', CURTAILMENT_MESSAGES.executed);
      return queryClient.invalidateQueries({ queryKey: curtailmentKeys.all });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 403) return;
      if (actionable(err)) toast('error', err.message);
      else toast('error', CURTAILMENT_MESSAGES.executeFailed, MESSAGES.tryAgainLater);
    },
  });
}

/** Creates a default setpoint (spec 3 §4.3, §8); the setpoint lists reload. */
export function useCreateSetpoint() {
  return useMutation({
    mutationFn: async (body: CreateSetpointBody) => (await call(E.createSetpoint, { body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', CURTAILMENT_MESSAGES.setpointCreated);
      return queryClient.invalidateQueries({ queryKey: curtailmentKeys.all });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 403) return;
      if (actionable(err)) toast('error', err.message);
      else toast('error', CURTAILMENT_MESSAGES.setpointFailed, MESSAGES.tryAgainLater);
    },
  });
}

/** Removes a VPP's ACTIVE default setpoint (its standing limits lifted); the setpoint lists reload. */
export function useRemoveSetpoint() {
  return useMutation({
    mutationFn: (id: number) =>
      call(
        E.removeSetpoint,
        { params: { id } },
        { errorToast: CURTAILMENT_MESSAGES.setpointRemoveFailed, success: { title: CURTAILMENT_MESSAGES.setpointRemoved } },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: curtailmentKeys.all }),
  });
}

/** Cancels an upcoming or in-progress curtailment (spec 3 §8 texts); every curtailment query refreshes. */
export function useCancelCurtailment() {
  return useMutation({
    mutationFn: (id: number) =>
      call(E.cancel, { params: { id } }, { errorToast: CURTAILMENT_MESSAGES.cancelFailed, success: { title: CURTAILMENT_MESSAGES.cancelled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: curtailmentKeys.all }),
  });
}
