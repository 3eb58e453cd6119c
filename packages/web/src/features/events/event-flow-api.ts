import { useQuery } from '@tanstack/react-query';
import { dispatchEndpoints } from '@vpp/shared/dispatches/endpoints';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { POWER_FACTOR_MAX } from '@vpp/shared/dispatches/rules';
import { call } from '../../lib/request.ts';

// What a dispatch modal (a dispatch's, a RERT dispatch's) asks of the VPP while the draft changes.

/** Under ['dispatches'] whichever kind asks (the VPP's constraints and predictions are the same calls), so a new dispatch invalidates them. */
const flowKeys = {
  constraints: (id: number, q: object) => ['dispatches', 'new', 'constraints', id, q] as const,
  predictions: (id: number, q: object) => ['dispatches', 'new', 'predictions', id, q] as const,
};

export interface ConstraintsArgs {
  /** When the dispatch starts: the answer then says what other events hold (docs/precedence.md). */
  startTime?: number;
  duration: number;
  realPowerP: number;
  powerFactor: number | null;
}

/** What the VPP can do for the dispatch being drawn up; the previous answer stays shown while the next loads. */
export function useDispatchConstraints(id: number | null, q: ConstraintsArgs) {
  const query = { duration: q.duration, realPowerP: q.realPowerP, powerFactor: q.powerFactor ?? POWER_FACTOR_MAX, startTime: q.startTime };
  return useQuery({
    queryKey: flowKeys.constraints(id ?? 0, query),
    queryFn: async () =>
      (await call(dispatchEndpoints.constraints, { params: { id: id ?? 0 }, query }, { errorToast: DISPATCH_MESSAGES.constraintsFailed })).data,
    enabled: id !== null,
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[3] === id ? prev : undefined),
  });
}

export interface PredictionsArgs {
  start: number;
  dispatchStart: number;
  dispatchDuration: number;
  dispatchRealPowerP: number;
  strategy?: 'greedy' | 'uniform';
}

/** The VPP's day from `start`, without and with the dispatch. */
export function useDispatchPredictions(id: number | null, q: PredictionsArgs) {
  return useQuery({
    queryKey: flowKeys.predictions(id ?? 0, q),
    queryFn: async () =>
      (await call(dispatchEndpoints.predictions, { params: { id: id ?? 0 }, query: q }, { errorToast: DISPATCH_MESSAGES.predictionFailed })).data,
    enabled: id !== null,
    // Keep the graph while a new power or window loads; another VPP or day starts from empty.
    placeholderData: (prev, prevQuery) =>
      prevQuery?.queryKey[3] === id && (prevQuery?.queryKey[4] as PredictionsArgs | undefined)?.start === q.start ? prev : undefined,
  });
}
