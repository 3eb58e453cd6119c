import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { FleetMonitoringPage } from './fleet-monitoring-page.tsx';

const node = (id: number, siteLabel: string | null, lastTimestamp: number | null, connectionOffline: boolean) => ({
  id,
  siteLabel,
  address: {
    lat: -33.9,
    lng: 151.18,
    street: `${id} Solar Street`,
    suburb: 'Newtown',
    state: 'NSW',
    postcode: '2042',
    text: `${id} Solar Street, Newtown NSW 2042`,
  },
  network: { nmi: `41020000${id}`, network: 'Ausgrid' },
  timezone: 'Australia/Sydney',
  system: { reposit: { serialNumber: `RPT00000${id}` }, inverter: [{ brand: 'Fronius' }], battery: [] },
  state: 'COMMISSIONED',
  status: { ping: { lastTimestamp, connectionOffline } },
  displayStatus: !connectionOffline ? 'ONLINE' : lastTimestamp ? 'OFFLINE' : 'AWAITING_CONTACT',
  phases: 1,
  hasSolar: true,
  hasBattery: false,
  hasInverter: true,
  solarCapacity: 6.6,
  reposit: { serialNumber: `RPT00000${id}`, product: 'Reposit Box', state: 'COMMISSIONED', commissionedDate: 1_740_000_000 },
});

describe('Fleet monitoring list', () => {
  it('sorts by node, site label, status and last contact from the column headers, in the URL and the request', async () => {
    // 2025-06-15 14:30 in Sydney, and a node never heard from.
    const api = stubFetch({ '/v2/nodes': { deployments: [node(12, 'Banksia', 1_749_961_800, false), node(7, null, null, true)], total: 2 } });
    vi.stubGlobal('fetch', api.fetch);
    const { user, router } = renderScreen(<FleetMonitoringPage />, { url: '/fleet-monitoring/nodes', account: testAccount(['fleet.node.any']) });
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Node', 'Site label', 'Address', 'NMI', 'Serial number', 'Inverter', 'Battery', 'Status', 'Last contact']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getAllByRole('cell').at(-1)).toHaveTextContent('15/06/2025 14:30');
    expect(within(rows[1]).getAllByRole('cell').at(-1)).toHaveTextContent(/^$/);
    expect(api.calls[0].url).toContain('sort=id&order=asc');
    expect(screen.getByRole('button', { name: 'Sort by Node, ascending' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sort by Last contact' }));
    expect(router.state.location.search).toContain('sort=lastContact&order=asc');
    await user.click(screen.getByRole('button', { name: 'Sort by Last contact, ascending' }));
    expect(router.state.location.search).toContain('sort=lastContact&order=desc');
    await waitFor(() => expect(api.calls.some((c) => c.url.includes('sort=lastContact&order=desc'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Sort by Site label' }));
    await waitFor(() => expect(api.calls.at(-1)?.url).toContain('sort=siteLabel&order=asc&limit=10&offset=0'));
    await user.click(screen.getByRole('button', { name: 'Sort by Status' }));
    await waitFor(() => expect(api.calls.at(-1)?.url).toContain('sort=status&order=asc'));
  });
});

describe('Fleet search', () => {
  it('answers a search longer than 200 characters with its limit and the empty state, without asking the server', async () => {
    const api = stubFetch({ '/v2/nodes': { deployments: [node(12, 'Banksia', 1_749_961_800, false)], total: 1 } });
    vi.stubGlobal('fetch', api.fetch);
    const { router } = renderScreen(<FleetMonitoringPage />, { url: `/fleet-monitoring/nodes?f=${'a'.repeat(201)}`, account: testAccount(['fleet.node.any']) });
    expect(await screen.findByText('No nodes have been found for this search criteria')).toBeInTheDocument();
    expect(screen.getByText('The search can be at most 200 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveAttribute('maxlength', '200');
    expect(api.calls.filter((c) => c.url.startsWith('/v2/nodes'))).toEqual([]);
    // The sidebar's link (no search) empties the box and lists the fleet.
    await act(() => router.navigate('/fleet-monitoring/nodes?tab=LIST&limit=10&offset=0'));
    await waitFor(() => expect(screen.getByLabelText('Search')).toHaveValue(''));
    expect(await screen.findByRole('cell', { name: 'Banksia' })).toBeInTheDocument();
    expect(screen.queryByText('The search can be at most 200 characters.')).toBeNull();
  });
});
