import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Dashboard, DEFAULT_DASHBOARD, type Widget } from '@vpp/shared/dashboard/layout';
import { type TickerEvent, tickerEventText } from '@vpp/shared/dashboard/ticker';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { DashboardPage, gridLayout } from './dashboard-page.tsx';
import { afterMove, SAVE_RETRY_MS } from './dashboard-state.ts';
import { rotationOrder } from './full-screen.tsx';
import { tickerDuration } from './ticker.tsx';

// MapLibre and uPlot need a real browser: their canvases are left out here (the e2e test draws them).
vi.mock('../../components/node-map-canvas.tsx', () => ({ default: () => <div data-testid="node-map-canvas" /> }));
vi.mock('./voltage-map-canvas.tsx', () => ({ default: () => <div data-testid="heat-map-canvas" /> }));
vi.mock('../../components/time-series-chart-canvas.tsx', () => ({ default: () => <div data-testid="chart-canvas" /> }));

const ALL = testAccount([
  'fleet.powerstations.data.view',
  'fleet.node.any',
  'fleet.powerstations.any',
  'fleet.customerInformation.any',
  'fleet.powerstations.view',
]);
const OPERATOR = testAccount(['fleet.node.any', 'fleet.powerstations.view', 'fleet.dispatches.view'], { givenName: 'Oscar' });
const NOBODY = testAccount([], { givenName: 'Nina' });

type Reply = { status: number; body: unknown };
const ok = (body: unknown): Reply => ({ status: 200, body });
const failing: Reply = { status: 500, body: { status: 'ERROR', data: { message: 'Internal error' } } };

const dashboard = (widgets: Widget[], isDefault = false): Reply => ok({ status: 'OK', data: { widgets, isDefault } satisfies Dashboard });
const at = (x: number, y: number, w = 1, h = 2) => ({ x, y, w, h });

function server(replies: Record<string, Reply | ((body: unknown) => Reply | Promise<Reply>)>) {
  const calls: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
    const r = replies[`${init.method ?? 'GET'} ${url.pathname}`] ?? replies[url.pathname];
    const reply = typeof r === 'function' ? await r(body) : (r ?? { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } });
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const EVENTS: TickerEvent[] = [
  {
    type: 'DISPATCH',
    id: 3,
    powerstation: { id: 7, name: 'Harbour' },
    state: 'INPROGRESS',
    realPowerP: -5,
    startTime: Date.parse('2026-11-28T06:00:00Z') / 1000,
    duration: 3600,
    text: 'Harbour is discharging',
  },
  {
    type: 'DISPATCH',
    id: 4,
    powerstation: { id: 8, name: 'Hills' },
    state: 'UPCOMING',
    realPowerP: 0,
    startTime: Date.parse('2026-11-28T09:30:00Z') / 1000,
    duration: 3600,
    text: 'Hills is due to lockout',
  },
  { type: 'CLOUD_COVER', value: 0.25, text: 'Cloud cover across the fleet is 25%' },
  { type: 'HIGH_TEMP', value: 38.2, postcode: '2000', text: 'High temperature of 38.2 °C in postcode 2000' },
  { type: 'NEWLY_COMMISSIONED', value: 1, text: '1 node commissioned in the last 7 days' },
  { type: 'AWAITING_COMMISSION', value: 12, text: '12 nodes awaiting commissioning' },
  { type: 'NEW_CUSTOMERS', value: 0, text: '0 new customers in the last 7 days' },
];

const BASE = {
  '/ticker': ok({ status: 'OK', data: EVENTS }),
  '/dashboard/totals': ok({ status: 'OK', data: { deploymentCounts: { commissioned: 1234, non_commissioned: 12, offline: 3 } } }),
  '/dashboard/map/view': ok({ status: 'OK', data: { total: 1, bounds: [151.2, -33.8, 151.2, -33.8], version: 'v1' } }),
  '/v2/powerstations': ok({
    result: [
      {
        id: 7,
        name: 'Harbour',
        type: 'STATIC',
        filters: { postcodes: [], state: null },
        duid: null,
        nodes: 2,
        namePlate: { batteryCapacity: 20, inverterPower: 10, batteryPower: 10, totalDeployments: 2 },
        createdAt: 1,
      },
    ],
    total: 1,
  }),
  '/api/meta': ok({ mapTileUrl: null }),
};

afterEach(() => {
  vi.useRealTimers();
  queryClient.clear();
  notifications.clean();
});

/** Opens Add Widget (synchronously: the menu has no transition in tests, and fake timers may be on) and returns its items. */
function openAddWidget() {
  fireEvent.click(screen.getByRole('button', { name: 'Add Widget' }));
  return screen.getByRole('menu').querySelectorAll('[role="menuitem"]');
}

describe('the dashboard (spec 2 §2, §4, §6)', () => {
  it('shows the default Welcome widget and offers only the widgets the permissions allow', async () => {
    server({ ...BASE, '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true) });
    renderScreen(<DashboardPage />, { account: ALL });
    expect(await screen.findByRole('heading', { name: 'Welcome, Rita' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Welcome' })).toBeVisible();
    expect([...openAddWidget()].map((i) => i.textContent)).toEqual(['Welcome', 'Voltage Heat Map', 'Single Stat', 'Node Map', 'Data Graph']);
  });

  it('offers the operator no heat map, and a user without fleet permissions only the Welcome widget', async () => {
    server({ ...BASE, '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true) });
    const first = renderScreen(<DashboardPage />, { account: OPERATOR });
    await screen.findByRole('heading', { name: 'Welcome, Oscar' });
    expect([...openAddWidget()].map((i) => i.textContent)).toEqual(['Welcome', 'Single Stat', 'Node Map', 'Data Graph']);
    first.unmount();
    queryClient.clear();
    renderScreen(<DashboardPage />, { account: NOBODY });
    await screen.findByRole('heading', { name: 'Welcome, Nina' });
    expect([...openAddWidget()].map((i) => i.textContent)).toEqual(['Welcome']);
  });

  it('replaces the Welcome widget with the first one added, puts the next below it in column 0, and saves 2000 ms after the last change', async () => {
    const calls = server({
      ...BASE,
      '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true),
      'POST /account/dashboard': (b) => dashboard((b as Dashboard).widgets),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    await screen.findByRole('heading', { name: 'Welcome, Rita' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    fireEvent.click(openAddWidget()[2]); // Single Stat
    expect(screen.queryByRole('region', { name: 'Welcome' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Single Stat' })).toBeVisible();
    expect(screen.getByText('Saving...')).toBeVisible();
    act(() => vi.advanceTimersByTime(1999));
    fireEvent.click(openAddWidget()[3]); // Node Map, before the first save: the wait starts again
    act(() => vi.advanceTimersByTime(1999));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await act(async () => vi.advanceTimersByTime(1));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual({
      widgets: [
        { widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'commissioned', powerstation: null } },
        { widgetId: 'NODE_MAP', layout: at(0, 2), settings: { shouldCluster: true } },
      ],
    });
    vi.useRealTimers();
    await waitFor(() => expect(screen.queryByText('Saving...')).toBeNull());
  });

  it('shows each widget kind with its figures, and saves a removal and a changed setting', async () => {
    const calls = server({
      ...BASE,
      '/account/dashboard': dashboard([
        { widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'commissioned', powerstation: null } },
        { widgetId: 'NODE_MAP', layout: at(1, 0, 2, 3), settings: { shouldCluster: true } },
        { widgetId: 'VOLTAGE_HEAT_MAP', layout: at(3, 0), settings: { powerstation: 7 } },
        { widgetId: 'DATA_GRAPH', layout: at(0, 2), settings: { powerstation: '__ALL_FLEET_NODES__', metric: 'meterPower' } },
      ]),
      'POST /account/dashboard': (b) => dashboard((b as Dashboard).widgets),
      '/api/powerstations/7/data/latest/heat-map': ok({
        status: 'OK',
        data: { total: 2, outside: 1, bounds: [151.1, -33.9, 151.2, -33.8], version: 'v1', hexagons: { '1000': 2, '500': 2, '300': 2, '100': 2 } },
      }),
      '/api/data': ok({ status: 'OK', series: { '1000': { meterPower: 2.5 }, '1300': { meterPower: -1 } } }),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    const stat = await screen.findByRole('region', { name: 'Single Stat' });
    expect(await within(stat).findByText('1,234')).toBeVisible();
    expect(within(stat).getByText('Commissioned nodes')).toBeVisible();
    const heat = screen.getByRole('region', { name: 'Voltage Heat Map' });
    expect(await within(heat).findByText('Harbour')).toBeVisible();
    expect(await within(heat).findByText('Shows the latest voltage of 2 nodes: 1 within 216.2 V to 253 V, 1 outside.')).toBeInTheDocument();
    expect(
      within(within(heat).getByRole('list', { name: 'Legend' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Below 216.2 V', '<235v', '240v', '>245v', 'Above 253 V']);
    // The server's view of the heat map (its hexagons come as vector tiles), never every node's reading.
    expect(within(heat).getByRole('region', { name: 'Voltage heat map' })).toHaveAttribute('data-node-count', '2');
    expect(calls.some((c) => c.path === '/api/powerstations/7/data/latest')).toBe(false);
    const graph = screen.getByRole('region', { name: 'Data Graph' });
    expect(within(graph).getByText('Meter Power · All fleet nodes')).toBeVisible();
    expect(await within(graph).findByRole('button', { name: 'Show data table' })).toBeVisible();
    const series = calls.find((c) => c.path === '/api/data');
    expect([series?.query.get('id'), series?.query.get('metrics'), series?.query.get('interval')]).toEqual(['__ALL_FLEET_NODES__', 'meterPower', '300']);
    // The last 24 hours up to now, not the user's day (empty just after midnight).
    const [from, to] = [Number(series?.query.get('start')), Number(series?.query.get('end'))];
    expect(to - from).toBe(86_400);
    expect(to).toBeGreaterThanOrEqual(Date.now() / 1000);
    expect(to - Date.now() / 1000).toBeLessThanOrEqual(300);
    const nodeMap = screen.getByRole('region', { name: 'Node Map' });
    expect(await within(nodeMap).findByTestId('node-map-canvas')).toBeInTheDocument();
    await waitFor(() => expect(within(nodeMap).getByRole('region', { name: 'Map of the fleet' })).toHaveAttribute('data-node-count', '1'));
    expect(calls.some((c) => c.path === '/dashboard/map')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Single Stat' }));
    expect(screen.queryByRole('region', { name: 'Single Stat' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Node Map settings' }));
    fireEvent.click(await screen.findByRole('switch', { name: 'Cluster nodes' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1), { timeout: 4000 });
    const saved = calls.find((c) => c.method === 'POST')?.body as Dashboard;
    expect(saved.widgets.map((w) => w.widgetId)).toEqual(['NODE_MAP', 'VOLTAGE_HEAT_MAP', 'DATA_GRAPH']);
    expect(saved.widgets[0].settings).toEqual({ shouldCluster: false });
  });

  it('gives the Data Graph no VPP choice without fleet.powerstations.data.view', async () => {
    server({
      ...BASE,
      '/account/dashboard': dashboard([{ widgetId: 'DATA_GRAPH', layout: at(0, 0), settings: { powerstation: 7, metric: 'solarPower' } }]),
      '/api/data': ok({ status: 'OK', series: {} }),
    });
    renderScreen(<DashboardPage />, { account: OPERATOR });
    const graph = await screen.findByRole('region', { name: 'Data Graph' });
    expect(await within(graph).findByText('No data to display on the graph')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Data Graph settings' }));
    expect(await screen.findByRole('combobox', { name: 'Metric' })).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Virtual Power Plant' })).toBeNull();
  });

  it('shows LOADING, then ERROR in the spec’s words when a widget’s call fails, and recovers', async () => {
    let totals: Reply = failing;
    server({
      ...BASE,
      '/account/dashboard': dashboard([{ widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'offline', powerstation: null } }]),
      '/dashboard/totals': () => totals,
    });
    renderScreen(<DashboardPage />, { account: ALL });
    const stat = await screen.findByRole('region', { name: 'Single Stat' });
    expect(within(stat).getByText('Loading...')).toBeVisible();
    const alert = await within(stat).findByRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(await screen.findByText('Failed to load dashboard counts.')).toBeVisible();
    totals = BASE['/dashboard/totals'];
    await act(() => queryClient.refetchQueries({ queryKey: ['dashboard', 'totals'] }));
    expect(await within(stat).findByText('3')).toBeVisible();
    expect(within(stat).queryByRole('alert')).toBeNull();
  });

  it('shows the ticker events in the spec’s wording, once for readers and once more for the loop', async () => {
    server({ ...BASE, '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true) });
    renderScreen(<DashboardPage />, { account: ALL });
    const list = await screen.findByRole('list', { name: 'Ticker events' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      // A dispatch says when it ends (in progress) or starts (upcoming), in the user's zone (Sydney, +11).
      expect.stringMatching(/^Harbour is discharging until 28 (November|Nov 26), 6:00 pm$/),
      expect.stringMatching(/^Hills is due to lockout at 28 (November|Nov 26), 8:30 pm$/),
      'Cloud cover across the fleet is 25%',
      'High temperature of 38.2 °C in postcode 2000',
      '1 node commissioned in the last 7 days',
      '12 nodes awaiting commissioning',
      '0 new customers in the last 7 days',
    ]);
    // The texts are the shared wording's (the server words them with the same function).
    expect(EVENTS.map((e) => tickerEventText(e))).toEqual(EVENTS.map((e) => e.text));
    expect(screen.getByRole('marquee', { name: 'Ticker' }).querySelectorAll('ul[aria-hidden="true"] li')).toHaveLength(EVENTS.length);
  });

  it('rotates full screen every 15,000 ms, pauses, resumes and exits with Escape', async () => {
    server({
      ...BASE,
      '/account/dashboard': dashboard([
        { widgetId: 'NODE_MAP', layout: at(0, 2), settings: { shouldCluster: true } },
        { widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'commissioned', powerstation: null } },
      ]),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    await screen.findByRole('region', { name: 'Single Stat' });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    fireEvent.click(screen.getByRole('button', { name: 'Full Screen' }));
    const full = screen.getByRole('dialog', { name: 'Full screen dashboard' });
    expect(within(full).getByText('Single Stat: 1 of 2')).toBeVisible();
    expect(within(full).getByRole('marquee', { name: 'Ticker' })).toBeVisible();
    act(() => vi.advanceTimersByTime(14_999));
    expect(within(full).getByText('Single Stat: 1 of 2')).toBeVisible();
    act(() => vi.advanceTimersByTime(1));
    expect(within(full).getByText('Node Map: 2 of 2')).toBeVisible();
    fireEvent.click(within(full).getByRole('button', { name: 'Pause' }));
    act(() => vi.advanceTimersByTime(60_000));
    expect(within(full).getByText('Node Map: 2 of 2 (paused)')).toBeVisible();
    fireEvent.click(within(full).getByRole('button', { name: 'Resume' }));
    act(() => vi.advanceTimersByTime(15_000));
    expect(within(full).getByText('Single Stat: 1 of 2')).toBeVisible();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Full screen dashboard' })).toBeNull();
  });

  it('toasts a failed save, keeps the layout on screen, and saves it again when the server answers', async () => {
    let down = true;
    const calls = server({
      ...BASE,
      '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true),
      'POST /account/dashboard': (b) => (down ? failing : dashboard((b as Dashboard).widgets)),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    await screen.findByRole('heading', { name: 'Welcome, Rita' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(openAddWidget()[3]);
    await act(async () => vi.advanceTimersByTimeAsync(2000));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByText('Failed to save Dashboard')).toBeVisible();
    expect(screen.getByRole('region', { name: 'Node Map' })).toBeVisible();
    // Not saved yet: still 'Saving...', and tried again SAVE_RETRY_MS later.
    expect(screen.getByText('Saving...')).toBeVisible();
    down = false;
    await act(async () => vi.advanceTimersByTimeAsync(SAVE_RETRY_MS));
    vi.useRealTimers();
    await waitFor(() => expect(screen.queryByText('Saving...')).toBeNull());
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1].body).toEqual(posts[0].body);
  });

  it('comes back to the layout as the user left it, not as first loaded', async () => {
    server({
      ...BASE,
      '/account/dashboard': dashboard(DEFAULT_DASHBOARD.widgets, true),
      'POST /account/dashboard': (b) => dashboard((b as Dashboard).widgets),
    });
    const first = renderScreen(<DashboardPage />, { account: ALL });
    await screen.findByRole('heading', { name: 'Welcome, Rita' });
    fireEvent.click(openAddWidget()[3]); // Node Map replaces Welcome
    expect(screen.getByRole('region', { name: 'Node Map' })).toBeVisible();
    first.unmount();
    renderScreen(<DashboardPage />, { account: ALL });
    expect(await screen.findByRole('region', { name: 'Node Map' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Welcome' })).toBeNull();
  });
});

describe('the grid and the rotation', () => {
  const w = (key: string, layout: Widget['layout']) => ({ key, widgetId: 'WELCOME', layout, settings: {} }) as Widget & { key: string };
  it('narrows the saved 5-column layout to the breakpoint’s columns', () => {
    expect(gridLayout([w('a', at(3, 0, 2, 2)), w('b', at(0, 2, 5, 1))], 2).map(({ i, x, y, w: width, h }) => ({ i, x, y, w: width, h }))).toEqual([
      { i: 'a', x: 0, y: 0, w: 2, h: 2 },
      { i: 'b', x: 0, y: 2, w: 2, h: 1 },
    ]);
  });
  it('takes every position from the 5-column grid, and only the moved widget from a narrower one', () => {
    const saved = [w('a', at(3, 0, 2, 2)), w('b', at(0, 2, 5, 1)), w('c', at(4, 3, 1, 2))];
    // On 4 columns the grid squeezed a and b; the user dragged c: only c is saved, the rest keep their places.
    const squeezed = [
      { i: 'a', x: 2, y: 0, w: 2, h: 2 },
      { i: 'b', x: 0, y: 2, w: 4, h: 1 },
      { i: 'c', x: 1, y: 5, w: 1, h: 2 },
    ];
    // The item as let go (row 6) is where the grid settles it (row 5, compacted upwards).
    expect(afterMove(saved, squeezed, { ...squeezed[2], y: 6 }, 4).map((x) => [x.key, x.layout])).toEqual([
      ['a', at(3, 0, 2, 2)],
      ['b', at(0, 2, 5, 1)],
      ['c', at(1, 5, 1, 2)],
    ]);
    const wide = [
      { i: 'a', x: 0, y: 0, w: 2, h: 2 },
      { i: 'b', x: 0, y: 2, w: 5, h: 1 },
      { i: 'c', x: 4, y: 3, w: 1, h: 2 },
    ];
    expect(afterMove(saved, wide, wide[0], 5).map((x) => [x.key, x.layout])).toEqual([
      ['a', at(0, 0, 2, 2)],
      ['b', at(0, 2, 5, 1)],
      ['c', at(4, 3, 1, 2)],
    ]);
  });
  it('shows full screen row by row, left to right, and scrolls the ticker longer for longer texts', () => {
    expect(rotationOrder([w('c', at(0, 4)), w('b', at(2, 0)), w('a', at(0, 0))]).map((x) => x.key)).toEqual(['a', 'b', 'c']);
    expect(tickerDuration(EVENTS.slice(0, 1))).toBe(20);
    expect(tickerDuration(Array.from({ length: 40 }, () => EVENTS[3]))).toBeGreaterThan(200);
  });
});

/** IntersectionObserver as the test moves the window: `reach(el)` brings the observed widget near it. */
function windowObserver() {
  const observed = new Map<Element, IntersectionObserverCallback>();
  class Observer {
    constructor(private readonly cb: IntersectionObserverCallback) {}
    observe(el: Element) {
      observed.set(el, this.cb);
    }
    unobserve(el: Element) {
      observed.delete(el);
    }
    disconnect() {
      for (const [el, cb] of observed) if (cb === this.cb) observed.delete(el);
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return {
    reach(el: Element) {
      const card = [...observed.keys()].find((k) => k === el || k.contains(el));
      const cb = card && observed.get(card);
      if (!card || !cb) throw new Error('not observed');
      act(() => cb([{ target: card, isIntersecting: true } as unknown as IntersectionObserverEntry], {} as IntersectionObserver));
    },
  };
}

describe('the dashboard painting progressively (issue 30 item 2)', () => {
  it('paints the grid from the layout this browser kept before the server answers, then takes the server’s', async () => {
    const kept: Dashboard = {
      widgets: [{ widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'commissioned', powerstation: null } }],
      isDefault: false,
    };
    localStorage.setItem('vpp.dashboard.1', JSON.stringify(kept));
    let answer: (r: Reply) => void = () => undefined;
    const layout = new Promise<Reply>((resolve) => {
      answer = resolve;
    });
    const calls = server({ ...BASE, '/account/dashboard': () => layout });
    renderScreen(<DashboardPage />, { account: ALL });
    // The kept widget shows its figure while the layout is still on its way.
    const stat = await screen.findByRole('region', { name: 'Single Stat' });
    expect(await within(stat).findByText('1,234')).toBeVisible();
    expect(calls.some((c) => c.path === '/account/dashboard')).toBe(true);
    expect(screen.queryByRole('region', { name: 'Node Map' })).toBeNull();
    // The server's layout (saved on another computer) replaces it, and is kept for the next visit.
    const saved = [...kept.widgets, { widgetId: 'NODE_MAP', layout: at(1, 0), settings: { shouldCluster: true } } satisfies Widget];
    answer(dashboard(saved));
    expect(await screen.findByRole('region', { name: 'Node Map' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Single Stat' })).toBeVisible();
    await waitFor(() => expect(JSON.parse(localStorage.getItem('vpp.dashboard.1') ?? 'null')).toEqual({ widgets: saved, isDefault: false }));
    // Another user's kept layout is not this one's.
    expect(localStorage.getItem('vpp.dashboard.2')).toBeNull();
  });

  it('loads a widget only when it comes near the window, showing Loading... until then', async () => {
    const view = windowObserver();
    const calls = server({
      ...BASE,
      '/account/dashboard': dashboard([
        { widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'commissioned', powerstation: null } },
        { widgetId: 'DATA_GRAPH', layout: at(0, 2), settings: { powerstation: '__ALL_FLEET_NODES__', metric: 'meterPower' } },
      ]),
      '/api/data': ok({ status: 'OK', series: { '1000': { meterPower: 2.5 } } }),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    const stat = await screen.findByRole('region', { name: 'Single Stat' });
    const graph = screen.getByRole('region', { name: 'Data Graph' });
    expect(within(stat).getByText('Loading...')).toBeVisible();
    expect(within(graph).getByText('Loading...')).toBeVisible();
    expect(calls.some((c) => c.path === '/dashboard/totals' || c.path === '/api/data')).toBe(false);
    view.reach(stat);
    expect(await within(stat).findByText('1,234')).toBeVisible();
    expect(calls.some((c) => c.path === '/api/data')).toBe(false);
    expect(within(graph).getByText('Loading...')).toBeVisible();
    view.reach(graph);
    expect(await within(graph).findByRole('button', { name: 'Show data table' })).toBeVisible();
    expect(calls.filter((c) => c.path === '/api/data')).toHaveLength(1);
  });

  it('shows a VPP’s live figure added up by the server (format=total), not from every node’s reading', async () => {
    const calls = server({
      ...BASE,
      '/account/dashboard': dashboard([{ widgetId: 'SINGLE_STAT', layout: at(0, 0), settings: { metric: 'solarPower', powerstation: 7 } }]),
      '/api/powerstations/7/data/latest': ok({ status: 'OK', totals: { solarPower: { value: 1234.5, nodes: 3 } } }),
    });
    renderScreen(<DashboardPage />, { account: ALL });
    const stat = await screen.findByRole('region', { name: 'Single Stat' });
    expect(await within(stat).findByText('1.23 MW')).toBeVisible();
    expect(within(stat).getByText('3 nodes reporting')).toBeVisible();
    const latest = calls.find((c) => c.path === '/api/powerstations/7/data/latest');
    expect([latest?.query.get('metrics'), latest?.query.get('format'), latest?.query.get('maxAge')]).toEqual(['solarPower', 'total', '1200']);
  });
});
