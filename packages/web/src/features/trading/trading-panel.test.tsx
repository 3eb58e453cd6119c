import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEFAULT_TRADING_POLICY, type TradingState } from '@vpp/shared';
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

function renderPanel(reply: TradingState, permissions = ['fleet.dispatches.any', 'fleet.dispatches.edit']) {
  const api = stubFetch({ '/api/powerstations/7/trading': { status: 'OK', data: reply } });
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
});
