import { fireEvent, screen, waitFor } from '@testing-library/react';
import { BACKTEST_MESSAGES, type Backtest, DEFAULT_TRADING_POLICY, type TradingState } from '@vpp/shared/trading/schemas';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { TradingPanel } from './trading-panel.tsx';

const start = 1_800_000_000;
const state = (over: Partial<TradingState> = {}): TradingState => ({
  policy: DEFAULT_TRADING_POLICY,
  updatedAt: null,
  updatedBy: null,
  plannedAt: null,
  suspended: null,
  plan: [],
  expectedRevenue: 0,
  outcome: [],
  ...over,
});

function renderPanel(reply: TradingState, permissions = ['fleet.dispatches.any', 'fleet.dispatches.edit'], backtests: Backtest[] = []) {
  const api = stubFetch({
    '/api/powerstations/7/trading': { status: 'OK', data: reply },
    '/api/powerstations/7/trading/backtests': { status: 'OK', data: backtests.length ? backtests : [] },
  });
  vi.stubGlobal('fetch', api.fetch);
  renderScreen(<TradingPanel id={7} />, { url: '/virtual-power-plants/manage/7?tab=TRADING', account: testAccount(permissions) });
  return api;
}

describe("a VPP's trading panel", () => {
  it('saves the policy the operator sets', async () => {
    const api = renderPanel(state());
    fireEvent.click(await screen.findByRole('radio', { name: 'Automatic' }));
    fireEvent.change(screen.getByLabelText('Lowest state of charge (%)', { exact: false }), { target: { value: '35' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Policy' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/powerstations/7/trading');
    expect(put?.body).toEqual({ ...DEFAULT_TRADING_POLICY, mode: 'AUTOMATIC', minSocPct: 35 });
  });

  it('shows the plan, its expected revenue, who set it, and why it is paused', async () => {
    renderPanel(
      state({
        policy: { ...DEFAULT_TRADING_POLICY, mode: 'AUTOMATIC' },
        plannedAt: start,
        updatedBy: 'Rita Retailer',
        expectedRevenue: 12.5,
        suspended: 'The price forecast is more than 30 minutes old, so no new automatic dispatch is made until it is fresh again.',
        plan: [
          { start: start + 300, kw: -10, price: 300, storedKwh: 20, revenue: 0.25 },
          { start: start + 600, kw: 5, price: 20, storedKwh: 24, revenue: -0.01 },
        ],
      }),
    );
    expect(await screen.findByText('Automatic trading is paused')).toBeInTheDocument();
    expect(screen.getByText(/expected revenue \$12\.50\. Policy set by Rita Retailer\./)).toBeInTheDocument();
    expect(
      screen.getByText('The price forecast is more than 30 minutes old, so no new automatic dispatch is made until it is fresh again.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No automatic trading in the last 24 hours.')).toBeInTheDocument();
  });

  it('is read-only without the dispatch edit permission', async () => {
    renderPanel(state(), ['fleet.dispatches.view']);
    expect(await screen.findByLabelText('Most cycles a day')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save Policy' })).toBeNull();
  });

  it('asks for a backtest of the period the operator picks, and shows each one’s figures against the naive rules', async () => {
    const strategy = (name: string, revenue: number) => ({
      name,
      revenue,
      dischargedKwh: 2_036_100,
      chargedKwh: 2_230_300,
      cycles: 26.3,
      maxDayCycles: 1,
      minStoredKwh: 16_288,
    });
    const api = renderPanel(state(), undefined, [
      {
        id: 2,
        firstDay: '2026-10-01',
        lastDay: '2026-10-31',
        requestedAt: start,
        requestedBy: 'Rita Retailer',
        status: 'DONE',
        progress: 1,
        error: null,
        result: {
          region: 'NSW1',
          capacityKwh: 81_438,
          powerKw: 42_523,
          floorKwh: 16_288,
          replanMinutes: 30,
          plans: 1488,
          optimiser: strategy('optimiser', 242_628),
          threshold: strategy('price threshold', -2159),
          evening: strategy('evening window', 171_184),
          gainOverBestNaive: 0.417,
        },
      },
      {
        id: 3,
        firstDay: '2026-11-01',
        lastDay: '2026-11-02',
        requestedAt: start,
        requestedBy: 'Rita Retailer',
        status: 'FAILED',
        progress: 0.2,
        error: BACKTEST_MESSAGES.failed,
        result: null,
      },
    ]);
    expect(await screen.findByText('The optimiser earned 41.7 % more than the better naive rule.', { exact: false })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Backtest 2026-10-01 to 2026-10-31' });
    expect(table).toHaveTextContent('Optimiser$242,628.00');
    expect(table).toHaveTextContent('Evening window$171,184.00');
    expect(table).toHaveTextContent('Price threshold-$2,159.00');
    expect(screen.getByText(BACKTEST_MESSAGES.failed)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Run Backtest' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/powerstations/7/trading/backtests');
    const body = post?.body as { firstDay: string; lastDay: string };
    // The default period: the 31 market days to yesterday.
    expect(Math.round((Date.parse(body.lastDay) - Date.parse(body.firstDay)) / 86_400_000) + 1).toBe(31);
    expect(body.lastDay < new Date(Date.now() + 10 * 3_600_000).toISOString().slice(0, 10)).toBe(true);
  });
});
