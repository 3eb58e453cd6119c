import { useQuery } from '@tanstack/react-query';
import type { Endpoint, ReplyOf } from '@vpp/shared/api/endpoint';
import { dispatchEndpoints as E } from '@vpp/shared/dispatches/endpoints';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { call, refreshUnlessNotFound } from '../../lib/request.ts';
import { detailRefreshMs } from './event-format.ts';

/** Query keys of an event's detail and its parts, under the kind's own area (['dispatches'], ['rert']). */
export const eventKeys = {
  detail: (id: number, area: string) => [area, id, 'detail'] as const,
  part: (id: number, part: 'prediction' | 'response' | 'remainingCharge' | 'cost', area: string) => [area, id, part] as const,
};

/**
 * The calls behind an event's detail page: a dispatch's, or another kind's of the same event (RERT),
 * each under its own query-key area.
 */
export interface EventSource {
  area: string;
  detail: typeof E.detail | Endpoint;
  prediction: Endpoint;
  response: Endpoint;
  remainingCharge: Endpoint;
  /** Only dispatches answer a cost. */
  cost?: Endpoint;
  loadFailed: string;
}

/**
 * Calls one of a dispatch's endpoints: a 404 (no such dispatch, or another organisation's) is left
 * to the page; any other failure toasts the call's text of spec 3 §8, and an ERROR reply's own words
 * when they say something the user can act on (spec 3 §4).
 */
const callDispatch = <EP extends Endpoint>(e: EP, id: number, failed: string): Promise<ReplyOf<EP>> =>
  call(e, { params: { id } } as never, { errorToast: failed, notFoundInPage: true });

type DetailReply = ReplyOf<typeof E.detail>;

/**
 * A dispatch, refreshed by the periods of spec 3 §4 (2 s while new, 8 s while in progress, otherwise
 * 5 minutes); a dispatch that is not found stops refreshing.
 */
export function useDispatch(id: number, source: EventSource) {
  return useQuery({
    queryKey: eventKeys.detail(id, source.area),
    queryFn: () => callDispatch(source.detail as typeof E.detail, id, source.loadFailed),
    refetchInterval: refreshUnlessNotFound<DetailReply>((d) => detailRefreshMs(d.data, Date.now())),
    retry: false,
  });
}

/** One part of a dispatch's detail, fetched once the dispatch is known and refreshed with it. */
function useDispatchPart<EP extends Endpoint>(
  id: number,
  part: 'prediction' | 'response' | 'remainingCharge' | 'cost',
  e: EP,
  failed: string,
  refreshMs: number | false,
  enabled: boolean,
  area: string,
) {
  return useQuery({
    queryKey: eventKeys.part(id, part, area),
    queryFn: () => callDispatch(e, id, failed),
    refetchInterval: refreshMs,
    enabled,
  });
}

// The parts answer the same replies whichever kind of event asks (the RERT endpoints reuse the dispatch schemas).
export const useDispatchPrediction = (id: number, refreshMs: number | false, enabled: boolean, s: EventSource) =>
  useDispatchPart(id, 'prediction', s.prediction as typeof E.prediction, DISPATCH_MESSAGES.predictionFailed, refreshMs, enabled, s.area);
export const useDispatchResponse = (id: number, refreshMs: number | false, enabled: boolean, s: EventSource) =>
  useDispatchPart(id, 'response', s.response as typeof E.response, DISPATCH_MESSAGES.responseFailed, refreshMs, enabled, s.area);
export const useDispatchRemainingCharge = (id: number, refreshMs: number | false, enabled: boolean, s: EventSource) =>
  useDispatchPart(id, 'remainingCharge', s.remainingCharge as typeof E.remainingCharge, DISPATCH_MESSAGES.remainingChargeFailed, refreshMs, enabled, s.area);
/** Only for those who see market data (spec 3 §1): the server refuses the others; a kind without a cost asks nothing. */
export const useDispatchCost = (id: number, refreshMs: number | false, enabled: boolean, s: EventSource) =>
  useDispatchPart(id, 'cost', (s.cost ?? E.cost) as typeof E.cost, DISPATCH_MESSAGES.costFailed, refreshMs, enabled && !!s.cost, s.area);
