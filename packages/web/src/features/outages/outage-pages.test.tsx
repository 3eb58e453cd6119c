import { screen, waitFor, within } from '@testing-library/react';
import type { GridOutage, GridOutageResponse } from '@vpp/shared/outages/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { OutageDetailPage } from './outage-detail-page.tsx';
import { OutageListPage } from './outage-list-page.tsx';

const VIEWER = testAccount(['fleet.powerstations.gridOutages.any']);
const EDITOR = testAccount(['fleet.powerstations.gridOutages.any', 'fleet.powerstations.gridOutages.edit']);

const now = Math.floor(Date.now() / 1000);
const outage = (o: Partial<GridOutage> = {}): GridOutage => ({
  id: 9,
  request: { startTime: now + 7200, duration: 7200 },
  reason: 'Storm Approaching',
  outageReason: 'STORM',
  powerstation: { id: 3, name: 'Coast' },
  state: 'UPCOMING',
  createdAt: now - 3600,
  createdBy: 'Rita Retailer',
  cancelledAt: null,
  customerMessage: 'Charge up.',
  ...o,
});
const response: GridOutageResponse = {
  responded: 3,
  total_deployments: 5,
  total_cancelled_deployments: 2,
  cancelled_deployments: [
    { nmi: '4102000001', deployment_uid: 11, cancelled_at: now - 600 },
    { nmi: '4102000002', deployment_uid: 12, cancelled_at: now - 300 },
  ],
};

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('grid outage list', () => {
  it('lists outages latest start first with their status, and no New Grid Outage without edit', async () => {
    const later = outage({ id: 2, request: { startTime: now + 9000, duration: 3600 }, reason: 'Planned Outage', outageReason: 'PLANNED' });
    const api = stubFetch({ '/grid-outages': { status: 'OK', data: { outages: [outage(), later] } } });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<OutageListPage />, { url: '/virtual-power-plants/grid-outages', account: VIEWER });
    const table = await screen.findByRole('table', { name: 'Grid Outages' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Planned Outage');
    expect(rows[1]).toHaveTextContent('Storm Approaching');
    expect(rows[1]).toHaveTextContent('2 h');
    expect(rows[1]).toHaveTextContent('Upcoming');
    expect(screen.queryByRole('button', { name: 'New Grid Outage' })).toBeNull();
    expect(api.calls[0].url).toBe('/grid-outages?contract_type=GRID_OUTAGE');
  });

  it('shows the empty text, and New Grid Outage to an editor', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/grid-outages': { status: 'OK', data: { outages: [] } } }).fetch);
    renderScreen(<OutageListPage />, { url: '/virtual-power-plants/grid-outages', account: EDITOR });
    expect(await screen.findByText('No grid outages have been found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Grid Outage' })).toBeInTheDocument();
  });

  it("toasts 'Failed to load grid outages.' when the list fails", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    renderScreen(<OutageListPage />, { url: '/virtual-power-plants/grid-outages', account: VIEWER });
    expect(await screen.findByText('Failed to load grid outages.')).toBeInTheDocument();
  });
});

describe('grid outage detail', () => {
  const at = { url: '/virtual-power-plants/grid-outages/9', path: '/virtual-power-plants/grid-outages/:id' };

  it('shows the title, creator, storm summary, responded progress and the opted-out nodes linking to their pages', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ '/grid-outage/9': { status: 'OK', data: outage() }, '/grid-outage/9/response': { status: 'OK', data: response } }).fetch,
    );
    renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Storm Approaching - Coast' })).toBeInTheDocument();
    expect(screen.getByText('Created by Rita Retailer')).toBeInTheDocument();
    expect(screen.getByText(/ahead of the expected storm outage/)).toBeInTheDocument();
    expect(await screen.findByText('3 of 5 nodes responded')).toBeInTheDocument();
    const list = screen.getByRole('table', { name: 'Opted-out nodes' });
    expect(within(list).getByRole('link', { name: '11' })).toHaveAttribute('href', '/fleet-monitoring/nodes/11');
    expect(within(list).getByRole('link', { name: '12' })).toHaveAttribute('href', '/fleet-monitoring/nodes/12');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it("shows each node's copy of the customer message: sent, delivered to the app, read, opted out (issue 34 item 12)", async () => {
    const api = stubFetch({
      '/grid-outage/9': { status: 'OK', data: outage() },
      '/grid-outage/9/response': { status: 'OK', data: response },
      '/api/events/9/customer-messages': {
        status: 'OK',
        data: {
          summary: { sent: 12, delivered: 2, read: 1, optedOut: 1 },
          total: 12,
          receipts: [
            { deployment_uid: 11, nmi: '4102000001', sentAt: 1_780_000_000, deliveredAt: 1_780_000_060, readAt: 1_780_000_120, optedOutAt: 1_780_000_180 },
            { deployment_uid: 13, nmi: '4102000003', sentAt: 1_780_000_000, deliveredAt: null, readAt: null, optedOutAt: null },
          ],
        },
      },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { user } = renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    const section = await screen.findByRole('region', { name: 'Customer Message Delivery' });
    expect(await within(section).findByText('Sent to 12 nodes: 2 delivered to the customer app, 1 read, 1 opted out.')).toBeInTheDocument();
    const rows = within(within(section).getByRole('table', { name: 'Message delivery by node' }))
      .getAllByRole('row')
      .slice(1);
    // Sydney time, as the account's zone.
    expect(rows[0]).toHaveTextContent('114102000001' + '29/05/2026 06:26' + '29/05/2026 06:27' + '29/05/2026 06:28' + '29/05/2026 06:29');
    expect(within(rows[0]).getByRole('link', { name: '11' })).toHaveAttribute('href', '/fleet-monitoring/nodes/11');
    expect(rows[1]).toHaveTextContent('134102000003' + '29/05/2026 06:26' + '–––');
    expect(api.calls.some((c) => c.url === '/api/events/9/customer-messages?limit=10&offset=0')).toBe(true);
    // Twelve nodes: a second page.
    await user.click(within(section).getByRole('button', { name: '2' }));
    await waitFor(() => expect(api.calls.some((c) => c.url === '/api/events/9/customer-messages?limit=10&offset=10')).toBe(true));
  });

  it("titles an outage without a reason 'Unknown Grid Outage', and offers no Cancel once completed or to a viewer", async () => {
    const done = outage({ reason: null, state: 'COMPLETED', request: { startTime: now - 9000, duration: 3600 } });
    vi.stubGlobal('fetch', stubFetch({ '/grid-outage/9': { status: 'OK', data: done }, '/grid-outage/9/response': { status: 'OK', data: response } }).fetch);
    renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Unknown Grid Outage - Coast' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('cancels after the confirmation through POST /dispatch/{id}/cancel and toasts', async () => {
    const api = stubFetch({
      '/grid-outage/9': { status: 'OK', data: outage() },
      '/grid-outage/9/response': { status: 'OK', data: response },
      '/dispatch/9/cancel': { status: 'OK' },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { user, router } = renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Grid Outage' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Grid Outage' }));
    expect(await screen.findByText('Grid Outage Request successfully cancelled.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.url === '/dispatch/9/cancel')).toBe(true);
    expect(router.state.location.pathname).toBe('/virtual-power-plants/grid-outages');
  });

  it("toasts 'Failed to load grid outage response.' when the response fails", async () => {
    vi.stubGlobal('fetch', async (input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/grid-outage/9') return new Response(JSON.stringify({ status: 'OK', data: outage() }), { headers: { 'content-type': 'application/json' } });
      return new Response('{}', { status: 500 });
    });
    renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByText('Failed to load grid outage response.')).toBeInTheDocument();
  });

  it("toasts 'Failed to load grid outage.' when the outage fails", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    renderScreen(<OutageDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByText('Failed to load grid outage.')).toBeInTheDocument();
  });
});
