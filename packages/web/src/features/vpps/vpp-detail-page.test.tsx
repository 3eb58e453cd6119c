import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { setpointOf, VPP } from '../../test/event-fixtures.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { VppDetailPage } from './vpp-detail-page.tsx';

// The VPP detail's curtailment parts (spec 2 §2): the Default Setpoints tab and the 'Add New' menu's Curtailment.

const VIEWER = testAccount(['fleet.curtailments.any', 'fleet.powerstations.any']);
const EDITOR = testAccount(['fleet.curtailments.any', 'fleet.curtailments.edit', 'fleet.powerstations.any']);
const OPERATOR = testAccount(['fleet.node.any', 'fleet.powerstations.view', 'fleet.dispatches.view']);

const now = Math.floor(Date.now() / 1000);
const setpoint = setpointOf(now);

type Reply = { status: number; body: unknown };
const ok = (data: unknown): Reply => ({ status: 200, body: { status: 'OK', data } });
const failing: Reply = { status: 500, body: { status: 'ERROR', data: { message: 'Internal error' } } };

function server(replies: Record<string, Reply>) {
  const calls: { method: string; path: string; query: URLSearchParams }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const reply = replies[url.pathname] ?? { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } };
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

afterEach(() => {
  queryClient.clear();
  notifications.clean();
  vi.unstubAllGlobals();
});

describe("the VPP detail's curtailment parts", () => {
  const vppServer = () =>
    server({
      '/v2/powerstations/7': { status: 200, body: VPP },
      '/api/powerstations/7/events': { status: 200, body: { status: 'OK', events: [] } },
      '/v2/powerstations/7/nodes': { status: 200, body: { deployments: [], total: 0 } },
      '/api/curtailments/setpoints/powerstation/7': ok({ setpoints: [setpoint], total: 1 }),
      '/api/powerstations': { status: 200, body: { result: [VPP], total: 1 } },
      '/api/constraints/curtailments': ok({ constraint: -12.5, deploymentsCurtailable: 3 }),
      '/curtailment/prediction': ok({ interval: 300, solarPower: {}, meterPower: {}, warning: null, deployments: 3 }),
    });
  const at = (tab: string) => ({ url: `/virtual-power-plants/manage/7?tab=${tab}&limit=10&offset=0`, path: '/virtual-power-plants/manage/:id' });

  it("lists the VPP's setpoints on its Default Setpoints tab, and 'Add New' offers Curtailment opening the modal on this VPP", async () => {
    const calls = vppServer();
    const { user } = renderScreen(<VppDetailPage />, { ...at('SETPOINT_LIST'), account: EDITOR });
    expect(await screen.findByRole('tab', { name: 'Default Setpoints', selected: true })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Default Setpoints' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('ACTIVE');
    expect(calls.find((c) => c.path === '/api/curtailments/setpoints/powerstation/7')?.query.toString()).toBe('limit=10&offset=0');
    expect(screen.getByRole('button', { name: 'New Default Setpoint' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add New' }));
    expect(screen.queryByRole('menuitem', { name: 'Dispatch' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Curtailment' }));
    const modal = await screen.findByRole('dialog', { name: 'New Curtailment' });
    await waitFor(() => expect(within(modal).getByRole('combobox', { name: 'Virtual Power Plant' })).toHaveValue('Greater Sydney'));
  });

  it("toasts 'Failed to fetch curtailment setpoint changes.' when the VPP's setpoints fail", async () => {
    server({
      '/v2/powerstations/7': { status: 200, body: VPP },
      '/api/powerstations/7/events': { status: 200, body: { status: 'OK', events: [] } },
      '/api/curtailments/setpoints/powerstation/7': failing,
    });
    renderScreen(<VppDetailPage />, { ...at('SETPOINT_LIST'), account: VIEWER });
    expect(await screen.findByText('Failed to fetch curtailment setpoint changes.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Default Setpoint' })).toBeNull();
  });

  it('shows an operator without curtailment permissions neither the tab nor the Curtailment item', async () => {
    const calls = vppServer();
    renderScreen(<VppDetailPage />, { ...at('DEPLOYMENT_LIST'), account: OPERATOR });
    expect(await screen.findByRole('tab', { name: 'List', selected: true })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Default Setpoints' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add New' })).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/api/curtailments'))).toBe(false);
  });
});
