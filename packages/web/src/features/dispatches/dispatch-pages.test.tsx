import { screen } from '@testing-library/react';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { dispatchDetail, dispatchDetailReplies } from '../../test/event-fixtures.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { DispatchDetailPage } from './dispatch-detail-page.tsx';
import { DispatchListPage } from './dispatch-list-page.tsx';

const VIEWER = testAccount(['fleet.dispatches.view']);
const EDITOR = testAccount(['fleet.dispatches.any', 'fleet.dispatches.edit']);
const NETWORK_VIEWER = testAccount(['fleet.dispatches.any'], { suborg_type: 'NETWORK' });

const now = Math.floor(Date.now() / 1000);
const dispatch = dispatchDetail(now, now - 600);

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('dispatch list', () => {
  it("lists dispatches with the VPP beneath the event, 'In Progress', and no New Dispatch button without edit", async () => {
    const api = stubFetch({ '/api/dispatches': { status: 'OK', data: { dispatches: [dispatch], total: 1 } } });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<DispatchListPage />, { url: '/virtual-power-plants/dispatches?limit=10&offset=0', account: VIEWER });
    expect(await screen.findByText('Sydney batteries')).toBeInTheDocument();
    expect(screen.getByText('In Progress')).toBeInTheDocument();
    expect(screen.getByText('-250.00 kW')).toBeInTheDocument();
    expect(screen.getByText('1 h')).toBeInTheDocument();
    expect(screen.getByText('1-1 of 1 items')).toBeInTheDocument();
    expect(screen.getByText(/All times are in/)).toHaveTextContent('All times are in Australia/Sydney');
    expect(screen.getByRole('link', { name: 'Australia/Sydney' })).toHaveAttribute('href', '/user/settings');
    expect(screen.queryByRole('button', { name: 'New Dispatch' })).toBeNull();
    expect(api.calls[0].url).toBe('/api/dispatches?limit=10&offset=0');
  });

  it('shows the empty text, and New Dispatch to an editor', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/dispatches': { status: 'OK', data: { dispatches: [], total: 0 } } }).fetch);
    renderScreen(<DispatchListPage />, { url: '/virtual-power-plants/dispatches', account: EDITOR });
    expect(await screen.findByText('No dispatches have been found for this search criteria')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Dispatch' })).toBeInTheDocument();
  });

  it("toasts 'Failed to load trade requests.' when the list fails", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    renderScreen(<DispatchListPage />, { url: '/virtual-power-plants/dispatches', account: VIEWER });
    expect(await screen.findByText('Failed to load trade requests.')).toBeInTheDocument();
  });
});

describe('dispatch detail', () => {
  const replies = dispatchDetailReplies('/api/dispatches/42', dispatch);

  it('shows the request and response figures, and no cost to a NETWORK user without marketTrader', async () => {
    const api = stubFetch(replies);
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<DispatchDetailPage />, { url: '/virtual-power-plants/dispatches/42', path: '/virtual-power-plants/dispatches/:id', account: NETWORK_VIEWER });
    expect(await screen.findByText('-240.50 kW')).toBeInTheDocument();
    expect(screen.getByText('-250.00 kW (Discharge)')).toBeInTheDocument();
    expect(screen.getByText('40.08 kWh')).toBeInTheDocument();
    expect(screen.getByText('11 of 12')).toBeInTheDocument();
    expect(screen.getByText('Created by Rita Retailer')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Cost' })).toBeNull();
    expect(api.calls.some((c) => c.url.endsWith('/cost'))).toBe(false);
    // Nothing to draw yet: the spec's empty graph text.
    expect((await screen.findAllByText(DISPATCH_MESSAGES.noGraphData)).length).toBeGreaterThan(0);
  });

  it('says what it shows of a dispatch beyond the prediction horizon, and asks for no prediction', async () => {
    const later = now + 10 * 86_400 - (now % 300);
    const far = { ...dispatch, state: 'UPCOMING' as const, request: { ...dispatch.request, startTime: later } };
    const api = stubFetch({ ...replies, '/api/dispatches/42': { status: 'OK', data: far } });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<DispatchDetailPage />, { url: '/virtual-power-plants/dispatches/42', path: '/virtual-power-plants/dispatches/:id', account: NETWORK_VIEWER });
    expect(await screen.findByText(DISPATCH_MESSAGES.predictionLater)).toBeInTheDocument();
    expect(screen.getByText('-250.00 kW (Discharge)')).toBeInTheDocument();
    expect(screen.queryByText(DISPATCH_MESSAGES.predictionFailed)).toBeNull();
    expect(api.calls.some((c) => c.url.endsWith('/prediction'))).toBe(false);
  });

  it('shows the cost with the partial-settlement warning to a retailer', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ...replies,
        '/api/dispatches/42/cost': {
          status: 'OK',
          data: {
            type: 'SETTLED',
            cost: -18.456,
            buyPrice: null,
            sellPrice: 310.5,
            coverage: 0.9,
            reason: null,
            quote: { cost: -17.2, tradingPrice: 290, quotedAt: 1_750_000_000, forecastIssuedAt: 1_749_999_900, forecastSource: 'P5MIN' },
            difference: -1.26,
          },
        },
      }).fetch,
    );
    renderScreen(<DispatchDetailPage />, { url: '/virtual-power-plants/dispatches/42', path: '/virtual-power-plants/dispatches/:id', account: EDITOR });
    expect(await screen.findByText('$18.46')).toBeInTheDocument();
    expect(screen.getByText('Revenue')).toBeInTheDocument();
    expect(screen.getByText('$310.50/MWh')).toBeInTheDocument();
    expect(screen.getByText('Settled')).toBeInTheDocument();
    expect(screen.getByText(/10% of nodes are not included/)).toBeInTheDocument();
    // The quote kept at creation, the outcome and the difference (issue 33 item 2).
    expect(
      screen.getByText(/^Quoted at creation: revenue \$17\.20 at an average of \$290\.00\/MWh, from AEMO's P5MIN forecast issued .+\.$/),
    ).toBeInTheDocument();
    expect(screen.getByText('The settled outcome earned $1.26 more than quoted: the actual prices differed from the forecast.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel Dispatch' })).toBeInTheDocument();
  });

  it('shows no partial-settlement warning for an estimate, whose data is still arriving', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ...replies,
        '/api/dispatches/42/cost': {
          status: 'OK',
          data: { type: 'ESTIMATE', cost: 4.2, buyPrice: 95, sellPrice: null, coverage: 0.5, reason: null, quote: null, difference: null },
        },
      }).fetch,
    );
    renderScreen(<DispatchDetailPage />, { url: '/virtual-power-plants/dispatches/42', path: '/virtual-power-plants/dispatches/:id', account: EDITOR });
    expect(await screen.findByText('$4.20')).toBeInTheDocument();
    expect(screen.getByText('Estimated')).toBeInTheDocument();
    expect(screen.getByText('$95.00/MWh')).toBeInTheDocument();
    expect(screen.queryByText(/nodes are not included/)).toBeNull();
    expect(screen.getByText('No quote was kept for this dispatch (created before quotes were kept, or with no NEM price).')).toBeInTheDocument();
  });

  it('says once, in the page, that a dispatch is not found, and calls nothing else', async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<DispatchDetailPage />, { url: '/virtual-power-plants/dispatches/99', path: '/virtual-power-plants/dispatches/:id', account: VIEWER });
    expect(await screen.findByRole('link', { name: 'Back to Dispatches' })).toHaveAttribute('href', '/virtual-power-plants/dispatches?limit=10&offset=0');
    expect(screen.queryByText(DISPATCH_MESSAGES.loadFailed)).toBeNull();
    expect(api.calls.map((c) => c.url)).toEqual(['/api/dispatches/99']);
  });
});
