import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DispatchDetail } from '@vpp/shared/dispatches/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { dispatchDetail, dispatchDetailReplies } from '../../test/event-fixtures.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { RertDetailPage } from './rert-detail-page.tsx';
import { RertListPage } from './rert-list-page.tsx';

const VIEWER = testAccount(['fleet.rert.dispatches.view']);
const EDITOR = testAccount(['fleet.rert.any', 'fleet.rert.dispatches.edit', 'fleet.powerstations.view']);

const now = Math.floor(Date.now() / 1000);
const rert = dispatchDetail(now, now + 7200, {
  state: 'UPCOMING',
  reason: 'RERT',
  customerMessage: { title: 'GridCredits Event', text: 'Reserve called' },
  currentResponse: { realPowerP: 0, rejectedRealPowerP: 0, deliveredKwh: 0, deploymentsResponded: 0 },
});
const replies = (d: DispatchDetail) => dispatchDetailReplies('/api/rert-dispatches/42', d);
const detailAt = { url: '/virtual-power-plants/rert-dispatches/42', path: '/virtual-power-plants/rert-dispatches/:id' };

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('RERT list', () => {
  it('lists the columns of spec 3 §2.5, with no New RERT Dispatch button without edit', async () => {
    const api = stubFetch({ '/api/rert-dispatches': { status: 'OK', data: { dispatches: [rert], total: 1 } } });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<RertListPage />, { url: '/virtual-power-plants/rert-dispatches?limit=10&offset=0', account: VIEWER });
    expect(await screen.findByText('Sydney batteries')).toBeInTheDocument();
    for (const h of ['Event', 'Start', 'Duration', 'Request', 'Status']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(screen.getByText('RERT 42')).toBeInTheDocument();
    expect(screen.getByText('Upcoming')).toBeInTheDocument();
    expect(screen.getByText('-250.00 kW')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New RERT Dispatch' })).toBeNull();
    expect(api.calls[0].url).toBe('/api/rert-dispatches?limit=10&offset=0');
  });

  it('shows New RERT Dispatch to an editor', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/api/rert-dispatches': { status: 'OK', data: { dispatches: [], total: 0 } } }).fetch);
    renderScreen(<RertListPage />, { url: '/virtual-power-plants/rert-dispatches', account: EDITOR });
    expect(await screen.findByText('No RERT dispatches have been found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New RERT Dispatch' })).toBeInTheDocument();
  });

  it("toasts 'Failed to load RERT dispatch requests.' when the list fails", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    renderScreen(<RertListPage />, { url: '/virtual-power-plants/rert-dispatches', account: VIEWER });
    expect(await screen.findByText('Failed to load RERT dispatch requests.')).toBeInTheDocument();
  });
});

describe('RERT detail', () => {
  it('shows the dispatch parts and Reschedule and Cancel to an editor while upcoming', async () => {
    vi.stubGlobal('fetch', stubFetch(replies(rert)).fetch);
    renderScreen(<RertDetailPage />, { ...detailAt, account: EDITOR });
    expect(await screen.findByText('-250.00 kW (Discharge)')).toBeInTheDocument();
    expect(screen.getByText('Reserve called')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('shows neither to a viewer, nor to an editor once in progress or cancelled', async () => {
    vi.stubGlobal('fetch', stubFetch(replies(rert)).fetch);
    const view = renderScreen(<RertDetailPage />, { ...detailAt, account: VIEWER });
    expect(await screen.findByText('-250.00 kW (Discharge)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reschedule' })).toBeNull();
    view.unmount();
    queryClient.clear();
    for (const d of [
      { ...rert, state: 'INPROGRESS' as const, request: { ...rert.request, startTime: now - 60 } },
      { ...rert, cancelledAt: now - 10 },
    ]) {
      vi.stubGlobal('fetch', stubFetch(replies(d)).fetch);
      const v = renderScreen(<RertDetailPage />, { ...detailAt, account: EDITOR });
      expect(await screen.findByText('-250.00 kW (Discharge)')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Reschedule' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
      v.unmount();
      queryClient.clear();
    }
  });

  it('marks each measured interval of a RERT dispatch as under intervention, paid under the contract and not at spot (issue 33 item 3)', async () => {
    const zero = { optedOut: 0, offline: 0, notAllocated: 0 };
    const none = { offline: 0, stateOfCharge: 0, inverterLimit: 0, household: 0 };
    const measurement = {
      totals: {
        requestedKwh: -20.833,
        baselineKwh: 4,
        measuredKwh: -16,
        deliveredKwh: -20,
        rejectedKwh: zero,
        notDeliveredKwh: { ...none, household: -0.833 },
      },
      intervals: [
        {
          ts: rert.request.startTime,
          seconds: 300,
          requestedKw: -250,
          baselineKw: 48,
          measuredKw: -192,
          deliveredKw: -240,
          rejectedKw: zero,
          notDeliveredKw: { ...none, household: -10 },
          nodesMeasured: 12,
          prices: {},
          valueAud: null,
        },
      ],
      baselineMethods: { counterfactual: 12, comparableDays: 0, sameDay: 0, none: 0 },
      baselineError: { nodes: 0, median: null },
      vppBaselineError: { dispatches: 0, median: null },
    };
    const started = { ...rert, state: 'INPROGRESS' as const };
    vi.stubGlobal(
      'fetch',
      stubFetch({
        ...replies(started),
        '/api/rert-dispatches/42/response': { status: 'OK', data: { interval: 300, series: {}, total: rert.currentResponse, measurement, venResponses: [] } },
      }).fetch,
    );
    renderScreen(<RertDetailPage />, { ...detailAt, account: VIEWER });
    expect(
      await screen.findByText(
        'Per 5-minute interval (kW). Each interval is under AEMO’s intervention (RERT): paid under the RERT contract, not at the spot price.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Market' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Intervention' })).toBeInTheDocument();
  });

  it("asks 'Are you sure want to cancel this dispatch?' and cancels with the spec's toast", async () => {
    const api = stubFetch({ ...replies(rert), '/api/rert-dispatches/42/cancel': { status: 'OK' } });
    vi.stubGlobal('fetch', api.fetch);
    const { router } = renderScreen(<RertDetailPage />, { ...detailAt, account: EDITOR });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Are you sure want to cancel this dispatch?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Dispatch' }));
    expect(await screen.findByText('RERT Dispatch successfully cancelled.')).toBeInTheDocument();
    // Then the list (spec 3 §1: after a cancel it navigates to the list).
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/virtual-power-plants/rert-dispatches?limit=10&offset=0'),
    );
    expect(api.calls.some((c) => c.method === 'POST' && c.url === '/api/rert-dispatches/42/cancel')).toBe(true);
  });

  it("toasts 'Failed to cancel RERT dispatch.' with the server's reason when refused", async () => {
    const fetch = async (input: string, init: RequestInit = {}) => {
      if (init.method === 'POST')
        return new Response(
          JSON.stringify({ status: 'ERROR', error: 'conflict', message: 'Started', data: { message: 'Only an upcoming RERT dispatch can be changed.' } }),
          {
            status: 409,
            headers: { 'content-type': 'application/json' },
          },
        );
      return stubFetch(replies(rert)).fetch(input, init);
    };
    vi.stubGlobal('fetch', fetch);
    renderScreen(<RertDetailPage />, { ...detailAt, account: EDITOR });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Dispatch' }));
    expect(await screen.findByText('Failed to cancel RERT dispatch.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Only an upcoming RERT dispatch can be changed.')).toBeInTheDocument());
  });
});
