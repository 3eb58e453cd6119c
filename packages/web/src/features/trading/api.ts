import { useMutation, useQuery } from '@tanstack/react-query';
import { MESSAGES } from '@vpp/shared/messages';
import { type BacktestBody, tradingEndpoints as E, type TradingPolicy } from '@vpp/shared/trading/schemas';
import { queryClient } from '../../lib/query-client.ts';
import { ApiError, call } from '../../lib/request.ts';
import { toast } from '../../lib/toasts.ts';

export const TRADING_TEXTS = {
  loadFailed: 'Failed to load the trading policy.',
  saved: 'Trading policy saved',
  saveFailed: 'Failed to save the trading policy.',
} as const;

/** Whether a failure is an ERROR reply whose words the user can act on (a 4xx), rather than a fault. */
const actionable = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status < 500 && (err.body as { status?: string } | null)?.status === 'ERROR';

const key = (id: number) => ['trading', id] as const;

/** The VPP's trading policy, plan and results; refreshed every minute, as the plan is re-made every 5. */
export function useTrading(id: number) {
  return useQuery({
    queryKey: key(id),
    queryFn: async () => (await call(E.state, { params: { id } }, { errorToast: TRADING_TEXTS.loadFailed })).data,
    refetchInterval: 60_000,
  });
}

export function useSetTradingPolicy(id: number) {
  return useMutation({
    mutationFn: async (body: TradingPolicy) => (await call(E.setPolicy, { params: { id }, body }, { quiet: true })).data,
    onSuccess: (data) => {
      toast('success', TRADING_TEXTS.saved);
      queryClient.setQueryData(key(id), data);
      return queryClient.invalidateQueries({ queryKey: ['vpps', id, 'events'] });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 403) return;
      if (actionable(err)) toast('error', err.message);
      else toast('error', TRADING_TEXTS.saveFailed, MESSAGES.tryAgainLater);
    },
  });
}

export const BACKTEST_TEXTS = {
  loadFailed: 'Failed to load the backtests.',
  started: 'Backtest started',
  startFailed: 'Failed to start the backtest.',
} as const;

const backtestsKey = (id: number) => ['trading', id, 'backtests'] as const;

/** The VPP's last backtests; polled every 2 seconds while one runs. */
export function useBacktests(id: number) {
  return useQuery({
    queryKey: backtestsKey(id),
    queryFn: async () => (await call(E.backtests, { params: { id } }, { errorToast: BACKTEST_TEXTS.loadFailed })).data,
    refetchInterval: (query) => (query.state.data?.some((b) => b.status === 'RUNNING') ? 2000 : false),
  });
}

export function useStartBacktest(id: number) {
  return useMutation({
    mutationFn: async (body: BacktestBody) => (await call(E.startBacktest, { params: { id }, body }, { quiet: true })).data,
    onSuccess: () => {
      toast('success', BACKTEST_TEXTS.started);
      return queryClient.invalidateQueries({ queryKey: backtestsKey(id) });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 403) return;
      if (actionable(err)) toast('error', err.message);
      else toast('error', BACKTEST_TEXTS.startFailed, MESSAGES.tryAgainLater);
    },
  });
}
