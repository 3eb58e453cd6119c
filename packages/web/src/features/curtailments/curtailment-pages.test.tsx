import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CURTAILMENT_MESSAGES as M } from '@vpp/shared/curtailments/messages';
import type { CurtailmentDetail, CurtailmentSetpoint } from '@vpp/shared/curtailments/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { setpointOf, VPP } from '../../test/event-fixtures.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { CurtailmentDetailPage } from './curtailment-detail-page.tsx';
import { FeedInManagementPage } from './feed-in-management-page.tsx';
import { NewCurtailmentModal } from './new-curtailment-modal.tsx';
import { NewSetpointModal } from './new-setpoint-modal.tsx';

const VIEWER = testAccount(['fleet.curtailments.any', 'fleet.powerstations.any']);
const EDITOR = testAccount(['fleet.curtailments.any', 'fleet.curtailments.edit', 'fleet.powerstations.any', 'fleet.node.any']);
const OPERATOR = testAccount(['fleet.node.any', 'fleet.powerstations.view', 'fleet.dispatches.view']);

const now = Math.floor(Date.now() / 1000);
// Starts on a 5-minute step, as the server keeps them.
const soon = now - (now % 300) + 3600;
const curtailment = (c: Partial<CurtailmentDetail> = {}): CurtailmentDetail => ({
  id: 21,
  state: 'UPCOMING',
  triggered: false,
  reason: null,
  powerstation: { id: 7, name: 'Greater Sydney' },
  createdAt: now - 600,
  createdBy: 'Rita Retailer',
  cancelledAt: null,
  component: 'grid',
  request: { startTime: soon, duration: 14_400, realPowerP: -5, deploymentsRequested: 4 },
  // A node joined the VPP after the start: 5 asked, 4 requested at the start.
  currentResponse: { deploymentsAccepted: 3, deploymentsAsked: 5, solarPower: 12.5, meterPower: -4.8 },
  audit: [],
  ...c,
});
const setpoint = (s: Partial<CurtailmentSetpoint> = {}) => setpointOf(now, s);
const series = (kw: number, from: number, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [String(from + i * 300), kw]));

type Reply = { status: number; body: unknown };
const ok = (data: unknown): Reply => ({ status: 200, body: { status: 'OK', data } });

/** Answers the screens' calls from a table of path → reply (404 otherwise); returns the calls made. */
function server(replies: Record<string, Reply | ((body: unknown) => Reply)>) {
  const calls: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
    const r = replies[`${init.method ?? 'GET'} ${url.pathname}`] ?? replies[url.pathname];
    const reply = typeof r === 'function' ? r(body) : (r ?? { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } });
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}
/** A refusal the user can act on, in the server's words. */
const REFUSAL = M.belowConstraint(-12.5);
const failing: Reply = { status: 500, body: { status: 'ERROR', data: { message: 'Internal error' } } };

afterEach(() => {
  queryClient.clear();
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('Feed-In Management', () => {
  const list = '/virtual-power-plants/feed-in-management';

  it('lists curtailments with Net or Gross requests, paged by the URL, and offers the buttons to an editor', async () => {
    const gross = curtailment({ id: 22, component: 'solar', request: { startTime: now + 7200, duration: 3600, realPowerP: -2.5, deploymentsRequested: 2 } });
    const calls = server({ '/api/curtailments': ok({ curtailments: [gross, curtailment()], total: 62 }) });
    renderScreen(<FeedInManagementPage />, { url: `${list}?limit=50&offset=50`, account: EDITOR });
    expect(screen.getByRole('heading', { name: 'Feed-In Management' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Curtailments' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Event', 'Start', 'Duration', 'Request', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('-2.5 kW');
    expect(rows[0]).toHaveTextContent('Gross');
    expect(rows[1]).toHaveTextContent('-5.0 kW');
    expect(rows[1]).toHaveTextContent('Net');
    expect(rows[1]).toHaveTextContent('4 h');
    expect(rows[1]).toHaveTextContent('Upcoming');
    expect(screen.getByText('51-62 of 62 items')).toBeInTheDocument();
    expect(calls[0].query.toString()).toBe('limit=50&offset=50');
    expect(screen.getByRole('tab', { name: 'Curtailments', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Curtailment' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Default Setpoint' })).toBeInTheDocument();
  });

  it('shows the setpoints on the Default Setpoints tab, with the empty text of each tab, and no buttons to a viewer', async () => {
    server({
      '/api/curtailments': ok({ curtailments: [], total: 0 }),
      '/api/curtailments/setpoints': ok({ setpoints: [setpoint(), setpoint({ id: 4, status: 'INACTIVE', ramp_duration: 300 })], total: 2 }),
    });
    const { user, router } = renderScreen(<FeedInManagementPage />, { url: list, account: VIEWER });
    expect(await screen.findByText('No curtailments found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Curtailment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New Default Setpoint' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Default Setpoints' }));
    expect(router.state.location.search).toContain('tab=SETPOINT_LIST');
    const table = await screen.findByRole('table', { name: 'Default Setpoints' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Setpoint', 'Created At', 'Status', 'Ramp Duration', 'Gross VPP Limit (kW)', 'Net VPP Limit (kW)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('ACTIVE');
    expect(rows[0]).toHaveTextContent('120 s');
    expect(within(rows[0]).getAllByRole('cell')[4]).toHaveTextContent('-10');
    expect(within(rows[0]).getAllByRole('cell')[5]).toHaveTextContent('-3');
    expect(rows[1]).toHaveTextContent('INACTIVE');
  });

  it('lets an editor remove the ACTIVE setpoint after asking, then reloads the list (issue 34)', async () => {
    let removed = false;
    const calls = server({
      '/api/curtailments': ok({ curtailments: [], total: 0 }),
      '/api/curtailments/setpoints': () =>
        ok({ setpoints: [setpoint({ status: removed ? 'INACTIVE' : 'ACTIVE' }), setpoint({ id: 4, status: 'INACTIVE' })], total: 2 }),
      'POST /api/curtailments/setpoints/5/remove': () => {
        removed = true;
        return { status: 200, body: { status: 'OK' } };
      },
    });
    const { user } = renderScreen(<FeedInManagementPage />, { url: `${list}?tab=SETPOINT_LIST`, account: EDITOR });
    const table = await screen.findByRole('table', { name: 'Default Setpoints' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    // Only the ACTIVE setpoint offers Remove.
    expect(
      within(table)
        .getAllByRole('button', { name: /^Remove/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Remove setpoint 5']);
    await user.click(within(table).getByRole('button', { name: 'Remove setpoint 5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove setpoint 5' });
    expect(within(dialog).getByText(M.removeSetpointConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Setpoint successfully removed.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/curtailments/setpoints/5/remove']);
    await waitFor(() => expect(within(table).queryByRole('button', { name: 'Remove setpoint 5' })).toBeNull());
  });

  it("says 'No curtailment setpoints found.' for an empty setpoint list", async () => {
    server({ '/api/curtailments/setpoints': ok({ setpoints: [], total: 0 }) });
    renderScreen(<FeedInManagementPage />, { url: `${list}?tab=SETPOINT_LIST`, account: VIEWER });
    expect(await screen.findByText('No curtailment setpoints found.')).toBeInTheDocument();
  });

  it('toasts the load failures of both lists', async () => {
    server({ '/api/curtailments': failing, '/api/curtailments/setpoints': failing });
    const { user } = renderScreen(<FeedInManagementPage />, { url: list, account: VIEWER });
    expect(await screen.findByText('Failed to load curtailments.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Default Setpoints' }));
    expect(await screen.findByText('Failed to fetch curtailment setpoints.')).toBeInTheDocument();
  });

  it('is refused to a user without fleet.curtailments.any', async () => {
    const calls = server({});
    renderScreen(<FeedInManagementPage />, { url: list, account: OPERATOR });
    expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Default Setpoints' })).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('New Curtailment modal', () => {
  const newServer = (o: { constraint?: object; create?: Reply; vpps?: unknown[]; prediction?: object } = {}) =>
    server({
      '/api/powerstations': { status: 200, body: { result: o.vpps ?? [VPP], total: 1 } },
      '/api/constraints/curtailments': ok(o.constraint ?? { constraint: -12.5, deploymentsCurtailable: 3 }),
      '/curtailment/prediction': ok(
        o.prediction ?? { interval: 300, solarPower: series(20, now, 10), meterPower: series(-8, now, 10), warning: null, deployments: 3 },
      ),
      'POST /api/curtailments': o.create ?? ok({ id: 42 }),
    });
  const open = () => {
    const onClose = vi.fn();
    return {
      ...renderScreen(<NewCurtailmentModal opened onClose={onClose} powerstationId={7} />, {
        url: '/virtual-power-plants/feed-in-management',
        account: EDITOR,
      }),
      onClose,
    };
  };
  async function setLimit(kw: string) {
    const input = await screen.findByRole('textbox', { name: 'Real power' });
    await waitFor(() => expect(input).toBeEnabled());
    fireEvent.change(input, { target: { value: kw } });
    fireEvent.blur(input);
  }

  it('bounds the slider by the constraint and 0 with a 0.1 kW step, and executes a net curtailment to its detail', async () => {
    const calls = newServer();
    const { user, router, onClose } = open();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Virtual Power Plant' })).toHaveValue('Greater Sydney'));
    const slider = await screen.findByRole('slider', { name: 'Real power (kW)' });
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuemin', '-12.5'));
    expect(slider).toHaveAttribute('aria-valuemax', '0');
    expect(slider).toHaveAttribute('aria-valuenow', '0');
    act(() => slider.focus());
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuenow', '-0.1'));
    await setLimit('-30');
    await waitFor(() => expect(slider).toHaveAttribute('aria-valuenow', '-12.5'));
    await setLimit('-5');
    expect(screen.getByRole('radio', { name: 'Net', checked: true })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/curtailment/prediction' && c.query.get('powerstation') === '7')).toBe(true));

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(M.confirm)).toBeInTheDocument();
    expect(screen.getByText('Net -5.0 kW')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Curtailment successfully executed')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/virtual-power-plants/feed-in-management/42'));
    expect(onClose).toHaveBeenCalled();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ powerstation: 7, duration: 14_400, realPowerP: -5, component: 'grid' });
  });

  it('sends a gross curtailment as component solar', async () => {
    const calls = newServer();
    const { user } = open();
    await setLimit('-2');
    await user.click(screen.getByRole('radio', { name: 'Gross' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText('Gross -2.0 kW')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    await screen.findByText('Curtailment successfully executed');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ realPowerP: -2, component: 'solar' });
  });

  it("warns 'The selected Virtual Power Plant has no curtailable nodes.' and keeps Confirm disabled for a constraint of 0", async () => {
    newServer({ constraint: { constraint: 0, deploymentsCurtailable: 0 } });
    open();
    expect(await screen.findByText('The selected Virtual Power Plant has no curtailable nodes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Real power' })).toBeDisabled();
  });

  it("warns 'You must create a Virtual Power Plant before you can curtail.' when there is none", async () => {
    newServer({ vpps: [] });
    renderScreen(<NewCurtailmentModal opened onClose={() => undefined} />, { url: '/', account: EDITOR });
    expect(await screen.findByText('You must create a Virtual Power Plant before you can curtail.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  });

  it("shows the prediction's warning for a future date", async () => {
    newServer({
      prediction: { interval: 300, solarPower: {}, meterPower: {}, warning: 'Predictions for future dates are likely to be inaccurate.', deployments: 3 },
    });
    open();
    expect(await screen.findByText('Predictions for future dates are likely to be inaccurate.')).toBeInTheDocument();
    expect(screen.getByText('No data to display on the graph.')).toBeInTheDocument();
  });

  it("shows the server's refusal and stays; 'Failed to execute Curtailment.' when the server fails", async () => {
    newServer({ create: { status: 400, body: { status: 'ERROR', data: { message: REFUSAL } } } });
    const { user, router } = open();
    await setLimit('-5');
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText(REFUSAL)).toBeInTheDocument();
    expect(screen.queryByText('Failed to execute Curtailment.')).toBeNull();
    expect(router.state.location.pathname).toBe('/virtual-power-plants/feed-in-management');

    newServer({ create: failing });
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText('Failed to execute Curtailment.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/virtual-power-plants/feed-in-management');
  });

  it('toasts the constraint and prediction load failures', async () => {
    server({
      '/api/powerstations': { status: 200, body: { result: [VPP], total: 1 } },
      '/api/constraints/curtailments': failing,
      '/curtailment/prediction': failing,
    });
    open();
    expect(await screen.findByText('Failed to load curtailment constraints.')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load curtailment predictions.')).toBeInTheDocument();
  });
});

describe('New Curtailment Setpoint modal', () => {
  it('ignores a positive limit, sends 0 or less, toasts, closes and reloads the setpoints', async () => {
    const calls = server({
      '/api/powerstations': { status: 200, body: { result: [VPP], total: 1 } },
      'POST /api/curtailments/setpoint': ok({ id: 9 }),
    });
    const onClose = vi.fn();
    const { user } = renderScreen(<NewSetpointModal opened onClose={onClose} powerstationId={7} />, { url: '/', account: EDITOR });
    expect(await screen.findByRole('dialog', { name: 'New Curtailment Setpoint' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Virtual Power Plant' })).toHaveValue('Greater Sydney'));
    const ramp = screen.getByRole('textbox', { name: 'Ramp duration' });
    const gross = screen.getByRole('textbox', { name: 'Gross VPP Limit (kW)' });
    const net = screen.getByRole('textbox', { name: 'Net VPP Limit (kW)' });
    expect(ramp).toHaveValue('120 s');
    expect(gross).toHaveValue('0');
    expect(net).toHaveValue('0');
    // The default gross limit stops all solar: the modal says so while it stands.
    expect(screen.getByText(M.grossZero)).toBeInTheDocument();
    await user.clear(net);
    await user.type(net, '5');
    expect(net).not.toHaveValue('5');
    await user.clear(net);
    await user.type(net, '-4');
    expect(net).toHaveValue('-4');
    await user.clear(gross);
    await user.type(gross, '-9');
    expect(screen.queryByText(M.grossZero)).not.toBeInTheDocument();
    const reload = vi.spyOn(queryClient, 'invalidateQueries');
    await user.click(screen.getByRole('button', { name: 'Create Setpoint' }));
    expect(await screen.findByText('Setpoint successfully created')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ powerstation: 7, rampDuration: 120, meterRealPowerP: -4, inverterRealPowerP: -9 });
    expect(reload).toHaveBeenCalledWith({ queryKey: ['curtailments'] });
  });

  it("says 'Failed to create new default setpoint.' and stays open when the server fails", async () => {
    server({ '/api/powerstations': { status: 200, body: { result: [VPP], total: 1 } }, 'POST /api/curtailments/setpoint': failing });
    const onClose = vi.fn();
    const { user } = renderScreen(<NewSetpointModal opened onClose={onClose} powerstationId={7} />, { url: '/', account: EDITOR });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Virtual Power Plant' })).toHaveValue('Greater Sydney'));
    await user.click(screen.getByRole('button', { name: 'Create Setpoint' }));
    expect(await screen.findByText('Failed to create new default setpoint.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("warns 'You must create a Virtual Power Plant before you can set a default setpoint.' when there is none", async () => {
    server({ '/api/powerstations': { status: 200, body: { result: [], total: 0 } } });
    renderScreen(<NewSetpointModal opened onClose={() => undefined} />, { url: '/', account: EDITOR });
    expect(await screen.findByText('You must create a Virtual Power Plant before you can set a default setpoint.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Setpoint' })).toBeDisabled();
  });
});

describe('curtailment detail', () => {
  const at = { url: '/virtual-power-plants/feed-in-management/21', path: '/virtual-power-plants/feed-in-management/:id' };
  const start = soon;
  const detailServer = (c: CurtailmentDetail, extra: Record<string, Reply> = {}) =>
    server({
      '/api/curtailments/21': ok(c),
      '/api/curtailments/21/prediction': ok({
        interval: 300,
        solarPower: series(20, start - 3600, 60),
        meterPower: series(-8, start - 3600, 60),
        warning: null,
        deployments: 4,
      }),
      '/api/curtailments/21/response': ok({
        interval: 300,
        solarPower: {},
        meterPower: {},
        deploymentsReporting: {},
        deploymentsRequested: 4,
        deploymentsAccepted: 3,
        currentResponse: c.currentResponse,
      }),
      '/curtailment/21/nodes': ok({
        nodes: [
          { id: 101, nmi: '4102000001', serialNumber: 'RP-0101', address: '1 Sun St, Bondi NSW 2026', responded: true },
          { id: 102, nmi: null, serialNumber: 'RP-0102', address: null, responded: false },
        ],
        total: 2,
      }),
      '/api/events': {
        status: 200,
        body: {
          status: 'OK',
          events: [
            { id: 21, type: 'CURTAILMENT', startTime: start, duration: 14_400, state: 'UPCOMING', powerstation: { id: 7, name: 'Greater Sydney' } },
            { id: 3, type: 'DISPATCH', startTime: start, duration: 600, state: 'UPCOMING', powerstation: null },
          ],
        },
      },
      ...extra,
    });

  it('is titled by the VPP, shows node progress, accepted power, the graph, the events panel and the node table', async () => {
    detailServer(curtailment());
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Greater Sydney', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('3 of 5 nodes accepted')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Nodes accepted' })).toHaveAttribute('aria-valuenow', '60');
    expect(screen.getByText('Accepted power').nextSibling).toHaveTextContent('4.8 kW');
    const request = screen.getByRole('region', { name: 'Request' });
    expect(within(request).getByText('Limit').nextSibling).toHaveTextContent('-5.0 kW');
    expect(within(request).getByText('Component').nextSibling).toHaveTextContent('Net');
    expect(await screen.findByRole('img', { name: 'Curtailment solar and meter power' })).toBeInTheDocument();
    const events = await screen.findByRole('table', { name: 'Curtailment events' });
    expect(within(events).getAllByRole('row')).toHaveLength(2);
    expect(within(events).getByRole('link', { name: 'Greater Sydney' })).toHaveAttribute('href', '/virtual-power-plants/feed-in-management/21');
    const nodes = await screen.findByRole('table', { name: 'Curtailment nodes' });
    expect(
      within(nodes)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Node', 'NMI', 'Serial Number', 'Address', 'Responded']);
    expect(within(nodes).getByRole('link', { name: '101' })).toHaveAttribute('href', '/fleet-monitoring/nodes/101');
    expect(within(nodes).getAllByRole('row')[1]).toHaveTextContent('4102000001RP-01011 Sun St, Bondi NSW 2026Yes');
    expect(within(nodes).getAllByRole('row')[2]).toHaveTextContent('No');
  });

  it("labels a network's import limit 'Import' and shows the import its meters hold (issue 31)", async () => {
    detailServer(
      curtailment({
        triggered: true,
        reason: 'Import limit (OpenADR event-9 from vtn.example)',
        component: 'import',
        request: { startTime: start, duration: 1800, realPowerP: 2, deploymentsRequested: 1 },
        currentResponse: { deploymentsAccepted: 1, deploymentsAsked: 1, solarPower: 0, meterPower: 1.6 },
      }),
    );
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Import limit (OpenADR event-9 from vtn.example)', level: 1 })).toBeInTheDocument();
    const request = screen.getByRole('region', { name: 'Request' });
    expect(within(request).getByText('Component').nextSibling).toHaveTextContent(/^Import$/);
    expect(within(request).getByText('Limit').nextSibling).toHaveTextContent('2.0 kW');
    expect(screen.getByText('Accepted power').nextSibling).toHaveTextContent('1.6 kW');
    expect(
      screen.getByText('Accepted power is the import at the meters of the Virtual Power Plant’s homes now (those without a battery too).'),
    ).toBeInTheDocument();
    queryClient.clear();

    server({
      '/api/curtailments': ok({
        curtailments: [curtailment({ component: 'import', request: { startTime: start, duration: 1800, realPowerP: 2, deploymentsRequested: 1 } })],
        total: 1,
      }),
    });
    renderScreen(<FeedInManagementPage />, { url: '/virtual-power-plants/feed-in-management', account: VIEWER });
    const row = within(await screen.findByRole('table', { name: 'Curtailments' })).getAllByRole('row')[1];
    expect(row).toHaveTextContent('2.0 kW');
    expect(within(row).getByText('Import')).toBeInTheDocument();
  });

  it("is titled by the reason when triggered, 'Unknown' when the VPP is not found; no Cancel when completed or to a viewer", async () => {
    detailServer(curtailment({ triggered: true, reason: 'Network constraint: Bondi feeder' }));
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Network constraint: Bondi feeder', level: 1 })).toBeInTheDocument();
    queryClient.clear();

    detailServer(
      curtailment({ powerstation: null, state: 'COMPLETED', request: { startTime: now - 20_000, duration: 3600, realPowerP: -5, deploymentsRequested: 4 } }),
    );
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Unknown', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    queryClient.clear();

    detailServer(curtailment());
    renderScreen(<CurtailmentDetailPage />, { ...at, account: VIEWER });
    expect((await screen.findAllByRole('heading', { name: 'Greater Sydney', level: 1 })).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('cancels after the confirmation, toasts and returns to the list', async () => {
    const calls = detailServer(curtailment({ state: 'INPROGRESS' }), { 'POST /api/curtailments/21/cancel': { status: 200, body: { status: 'OK' } } });
    const { user, router } = renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Curtailment' });
    expect(within(dialog).getByText(M.cancelConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Curtailment' }));
    expect(await screen.findByText('Curtailment successfully cancelled.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/curtailments/21/cancel')).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/virtual-power-plants/feed-in-management'));
  });

  it("says 'Failed to cancel curtailment.' when the cancel fails, and stays", async () => {
    detailServer(curtailment(), { 'POST /api/curtailments/21/cancel': failing });
    const { user, router } = renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel Curtailment' })).getByRole('button', { name: 'Cancel Curtailment' }));
    expect(await screen.findByText('Failed to cancel curtailment.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/virtual-power-plants/feed-in-management/21');
  });

  it('toasts the load failures of the curtailment, its response, prediction and nodes', async () => {
    detailServer(curtailment(), { '/api/curtailments/21/response': failing, '/api/curtailments/21/prediction': failing, '/curtailment/21/nodes': failing });
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    expect(await screen.findByText('Failed to load curtailment response.')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load curtailment prediction.')).toBeInTheDocument();
    expect(await screen.findByText('Failed to load curtailment nodes.')).toBeInTheDocument();
    queryClient.clear();
    server({ '/api/curtailments/21': failing });
    renderScreen(<CurtailmentDetailPage />, { ...at, account: EDITOR });
    // The first page, still mounted, asks again once the cache is cleared: each toasts.
    expect((await screen.findAllByText('Failed to load curtailment.')).length).toBeGreaterThan(0);
  });
});
