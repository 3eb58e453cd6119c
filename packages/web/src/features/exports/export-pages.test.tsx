import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { Account } from '@vpp/shared/account/schemas';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import type { ExportFile, ExportJob, ExportJobDetail } from '@vpp/shared/exports/schemas';
import { nodeEndpoints } from '@vpp/shared/nodes/endpoints';
import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { localDateToEpoch } from '@vpp/shared/time';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { VPP } from '../../test/event-fixtures.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { exportKeys } from './api.ts';
import { ExportListPage } from './export-list-page.tsx';

const ZONE = 'Australia/Sydney';
const EDITOR = testAccount(['fleet.analysis.export.view', 'fleet.analysis.export.edit', 'fleet.powerstations.view', 'fleet.node.any']);
/** Export permissions alone: no VPP screens, no node pages. */
const EXPORTER = testAccount(['fleet.analysis.export.view', 'fleet.analysis.export.edit']);
const VIEWER = testAccount(['fleet.analysis.export.view']);
const NOBODY = testAccount(['fleet.node.any']);
const PAGE = '/analysis/export?limit=10&offset=0';

// "Today" is 15 March 2026, 13:00 in Sydney (the account's zone). Only Date is faked.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T02:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  notifications.clean();
  notifications.cleanQueue();
});

const day = (d: string) => localDateToEpoch(d, ZONE);

const job = (j: Partial<ExportJob> = {}): ExportJob => ({
  task_id: 6,
  reference_id: 'EXP-000006',
  task_type: 'operational',
  status: 'SUCCESS',
  ts: day('2026-03-14') + 9 * 3600,
  progress: 1,
  time_remaining: 0,
  metrics: ['meter_power', 'solar_power'],
  task_info: {
    powerstation: 7,
    powerstationName: 'Greater Sydney',
    deploymentUids: [],
    start: day('2026-03-01'),
    end: day('2026-03-08'),
    interval: '1h',
    timezone: ZONE,
    splitPhases: false,
    aggByPowerstation: true,
    all_customers: null,
    submeters: false,
    // Another account's export (the test accounts are account 1).
    user: 2,
  },
  finished_at: day('2026-03-14') + 9 * 3600 + 40,
  expires_at: day('2026-03-21'),
  ...j,
});

const file = (f: Partial<ExportFile> = {}): ExportFile => ({
  metric: 'meter_power',
  label: 'Meter Power',
  signed_url: '/analysis/export-jobs/6/files/EXP-000006-meter_power.csv?token=abc.123',
  size: 14_234,
  filename: 'EXP-000006-meter_power.csv',
  empty: false,
  ...f,
});

const detail = (j: ExportJob, files: ExportFile[], empty = false): ExportJobDetail => ({
  ...j,
  details: { status: j.status, signed_urls: files, empty, loading: false, urls_expire_at: Math.floor(Date.now() / 1000) + 600, error: null },
});

const node = (id: number, patch: object = {}) => ({
  id,
  siteLabel: id === 5 ? 'Bondi home' : null,
  address: { lat: -33.9, lng: 151.2, street: '1 Beach Rd', suburb: 'Bondi', state: 'NSW', postcode: '2026', text: `${id} Beach Rd, Bondi NSW 2026` },
  network: { nmi: `410200000${id}`, network: 'Ausgrid' },
  timezone: ZONE,
  system: { reposit: { serialNumber: `RP-${id}` }, inverter: [{ brand: 'Fronius' }], battery: [{ brand: 'BYD' }] },
  state: 'COMMISSIONED',
  status: { ping: { lastTimestamp: 1, connectionOffline: false } },
  displayStatus: 'ONLINE',
  phases: 1,
  hasSolar: true,
  hasBattery: true,
  hasInverter: true,
  solarCapacity: 6.6,
  reposit: { serialNumber: `RP-${id}`, product: 'Reposit Box', state: 'COMMISSIONED', commissionedDate: 1 },
  ...patch,
});
const nodeDetail = (id: number) => ({ ...node(id), energySystems: [], gridMeters: [], solarMeters: [], subMeters: [], subMeterGroups: [] });

type Reply = { status: number; body: unknown };
const ok = (data: unknown): Reply => ({ status: 200, body: { status: 'OK', data } });

const refused: Reply = { status: 403, body: { status: 'ERROR', error: 'forbidden', data: { message: 'Not Authorized' } } };

/**
 * The server of the page's calls: by "METHOD path"; `list` answers the job list (a function: per call,
 * given its query). The VPP and node lists answer only an `account` (default EDITOR) with their permission.
 */
function server(
  opts: {
    list?: Reply | ((query: URLSearchParams) => Reply);
    details?: Record<number, Reply>;
    create?: Reply;
    nodes?: Reply;
    nodeDetail?: Reply;
    account?: Account;
  } = {},
) {
  const may = (permission: PermissionRequirement) => satisfies((opts.account ?? EDITOR).permissions, permission);
  const calls: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  const fetch = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    calls.push({ method, path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const key = `${method} ${url.pathname}`;
    const detailId = /^GET \/analysis\/export-jobs\/(\d+)$/.exec(key)?.[1];
    const cancelId = /^POST \/analysis\/export-jobs\/(\d+)\/cancel$/.exec(key)?.[1];
    const list = typeof opts.list === 'function' ? opts.list(url.searchParams) : (opts.list ?? ok({ tasks: [], total: 0 }));
    const r: Reply | undefined =
      key === 'GET /analysis/export-jobs'
        ? list
        : key === 'POST /analysis/export-jobs'
          ? (opts.create ?? ok(job({ task_id: 9, status: 'PENDING', progress: 0, time_remaining: null })))
          : detailId
            ? opts.details?.[Number(detailId)]
            : cancelId
              ? ok(job({ task_id: Number(cancelId), status: 'CANCELLED' }))
              : key === 'GET /api/powerstations' || key === 'GET /v2/powerstations'
                ? may(key === 'GET /api/powerstations' ? vppEndpoints.choices.permission : vppEndpoints.list.permission)
                  ? { status: 200, body: { result: [VPP, { ...VPP, id: 8, name: 'Hunter Valley' }], total: 2 } }
                  : refused
                : key === 'GET /v2/nodes'
                  ? may(nodeEndpoints.list.permission)
                    ? (opts.nodes ?? { status: 200, body: { deployments: [node(5), node(12)], total: 2 } })
                    : refused
                  : key === 'GET /api/nodes/5/detail'
                    ? (opts.nodeDetail ?? ok(nodeDetail(5)))
                    : undefined;
    const reply = r ?? { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } };
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
  };
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const listCalls = <C extends { method: string; path: string }>(calls: C[]) => calls.filter((c) => c.method === 'GET' && c.path === '/analysis/export-jobs');
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An export's accordion control: named by all it shows, its title first and its status last. */
const itemName = (title: string, status: string) => new RegExp(`^${esc(title)}.*${status}$`);
const item = (title: string, status: string) => screen.getByRole('button', { name: itemName(title, status) });

describe('the Data Export (csv) page', () => {
  it('lists the exports in an accordion of tasks with the status texts, the newest open with its files', async () => {
    const newest = job();
    const calls = server({
      list: ok({
        tasks: [
          newest,
          job({ task_id: 5, status: 'PROGRESS', progress: 0.42, time_remaining: 150_000 }),
          job({
            task_id: 4,
            status: 'PENDING',
            progress: 0,
            time_remaining: null,
            task_info: { ...newest.task_info, powerstation: null, powerstationName: null, deploymentUids: [5, 12] },
          }),
          job({ task_id: 3, status: 'FAILURE' }),
          job({ task_id: 2, status: 'REMOVED' }),
          job({
            task_id: 1,
            status: 'CANCELLED',
            task_type: 'customer',
            metrics: ['customers'],
            task_info: { ...newest.task_info, powerstation: null, powerstationName: null, start: null, end: null, interval: null },
          }),
        ],
        total: 6,
      }),
      details: {
        6: ok(
          detail(newest, [
            file(),
            file({ metric: 'solar_power', label: 'Solar Power', signed_url: null, size: 0, filename: 'EXP-000006-solar_power.csv', empty: true }),
          ]),
        ),
      },
    });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    expect(await screen.findByRole('heading', { name: 'Data Export (csv)' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: itemName(`${M.tileVpp}: Greater Sydney`, 'Completed') })).toBeInTheDocument();
    expect(item(`${M.tileVpp}: Greater Sydney`, 'Completed')).toHaveAttribute('aria-expanded', 'true');
    for (const text of ['Completed', 'In Progress', 'Submitted', 'Failed', 'Removed', 'Cancelled']) expect(screen.getAllByText(text).length).toBeGreaterThan(0);
    expect(item(`${M.tileNodes}: 2 nodes`, 'Submitted')).toBeInTheDocument();
    expect(item(M.tileCustomer, 'Cancelled')).toBeInTheDocument();
    // Progress and time remaining of the running export; the submitted one waits.
    expect(screen.getByText('42% · About 3 min remaining')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress 42%' })).toBeInTheDocument();
    expect(screen.getByText('Waiting for a worker to start it.')).toBeInTheDocument();

    // The newest completed export's files: a link per metric file with its name and size, '(no data)' for the other.
    const link = await screen.findByRole('link', { name: 'Download EXP-000006-meter_power.csv' });
    expect(link).toHaveAttribute('href', '/analysis/export-jobs/6/files/EXP-000006-meter_power.csv?token=abc.123');
    expect(link).toHaveAttribute('download', 'EXP-000006-meter_power.csv');
    expect(screen.getByText('Meter Power · 14.2 kB')).toBeInTheDocument();
    expect(screen.getByText('Solar Power (no data)')).toBeInTheDocument();
    expect(screen.getByText(M.blankFieldsNote)).toBeInTheDocument();
    expect(screen.getByText('01/03/2026 – 07/03/2026 (Australia/Sydney)')).toBeInTheDocument();
    expect(screen.getByText('Meter Power, Solar Power')).toBeInTheDocument();
    expect(screen.getByText(M.aggregateByVpp)).toBeInTheDocument();
    expect(listCalls(calls)[0].query.toString()).toBe('limit=10&offset=0');
    // Only the open, completed export's details are asked for.
    expect(calls.filter((c) => c.path.startsWith('/analysis/export-jobs/')).map((c) => c.path)).toEqual(['/analysis/export-jobs/6']);

    await user.click(screen.getByRole('button', { name: /Failed$/ }));
    await waitFor(() => expect(screen.getByText(M.generateError)).toBeVisible());
    await user.click(screen.getByRole('button', { name: /Removed$/ }));
    await waitFor(() => expect(screen.getByText(M.filesRemoved)).toBeVisible());
  });

  it('says when a completed export found no data, and when its files could not be fetched', async () => {
    const operational = job({ task_id: 3 });
    const customer = job({ task_id: 2, task_type: 'customer', metrics: ['customers'] });
    server({
      list: ok({ tasks: [operational, customer, job({ task_id: 1 })], total: 3 }),
      details: {
        3: ok(detail(operational, [], true)),
        2: ok(detail(customer, [], true)),
        1: { status: 500, body: { status: 'ERROR', data: { message: 'boom' } } },
      },
    });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    expect(await screen.findByText(M.noOperationalData)).toBeInTheDocument();
    await user.click(item(`${M.tileCustomer}: Greater Sydney`, 'Completed'));
    expect(await screen.findByText(M.noCustomerData)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: itemName(`${M.tileVpp}: Greater Sydney`, 'Completed') })[1]);
    expect(await screen.findByText(M.generateError)).toBeInTheDocument();
  });

  it('says when there are no exports', async () => {
    server();
    renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    expect(await screen.findByText('There are no data exports yet. Choose New Export to start one.')).toBeInTheDocument();
  });

  it('moves a page past the last one to the last page, without the empty text', async () => {
    const calls = server({
      list: (query) => ok({ tasks: Number(query.get('offset')) >= 5 ? [] : [1, 2, 3, 4, 5].map((id) => job({ task_id: id })), total: 5 }),
    });
    const { router } = renderScreen(<ExportListPage />, { url: '/analysis/export?limit=100&offset=100', account: EDITOR });
    await waitFor(() => expect(router.state.location.search).toBe('?limit=100&offset=0'));
    expect(await screen.findByText('1-5 of 5 items')).toBeInTheDocument();
    expect(screen.queryByText('There are no data exports yet. Choose New Export to start one.')).toBeNull();
    expect(calls.some((c) => c.query.get('offset') === '0')).toBe(true);
  });

  it('says "Unable to fetch export history." when the list fails', async () => {
    server({ list: { status: 500, body: { status: 'ERROR', data: { message: 'boom' } } } });
    renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    // The toast, and the page's own line where the list would be.
    await waitFor(() => expect(screen.getAllByText(M.historyFailed)).toHaveLength(2));
  });

  it('refreshes every 5 s while the newest export is submitted or in progress, and every 30 s otherwise', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: new Date('2026-03-15T02:00:00Z') });
    let status: ExportJob['status'] = 'PENDING';
    const calls = server({ list: () => ok({ tasks: [job({ status, progress: 0, time_remaining: null })], total: 1 }) });
    renderScreen(<ExportListPage />, { url: PAGE, account: VIEWER });
    await screen.findByText('Submitted');
    const count = () => listCalls(calls).length;
    expect(count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(count()).toBe(2);
    status = 'PROGRESS';
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(count()).toBe(3);
    await screen.findByText('In Progress');
    status = 'SUCCESS';
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    await screen.findByText('Completed');
    expect(count()).toBe(4);
    // Finished: the next refresh is 30 s later.
    await act(() => vi.advanceTimersByTimeAsync(29_999));
    expect(count()).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(count()).toBe(5);
  });

  it('fetches the files of an export it saw running once it succeeds, although its item is closed', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: new Date('2026-03-15T02:00:00Z') });
    let older: ExportJob['status'] = 'PROGRESS';
    const newest = job({ task_id: 6 });
    const calls = server({
      list: () => ok({ tasks: [newest, job({ task_id: 5, status: older, progress: 0.5, time_remaining: 60_000 })], total: 2 }),
      details: { 6: ok(detail(newest, [file()])), 5: ok(detail(job({ task_id: 5 }), [file({ filename: 'EXP-000005-meter_power.csv' })])) },
    });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: VIEWER });
    await screen.findByText('In Progress');
    const asked = () => calls.filter((c) => c.path.startsWith('/analysis/export-jobs/')).map((c) => c.path);
    await waitFor(() => expect(asked()).toEqual(['/analysis/export-jobs/6']));
    older = 'SUCCESS';
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(asked()).toEqual(['/analysis/export-jobs/6', '/analysis/export-jobs/5']));
    const [first, second] = screen.getAllByRole('button', { name: itemName(`${M.tileVpp}: Greater Sydney`, 'Completed') });
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(second).toHaveAttribute('aria-expanded', 'false');
    // Opened, its files are there without another call.
    await user.click(second);
    // The panel's opening transition runs on the faked clock.
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Download EXP-000005-meter_power.csv', hidden: true })).toBeVisible());
    expect(asked()).toHaveLength(2);
  });

  it("on a later page, refreshes by the newest export's status (limit=1, offset=0), not by the page's first", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: new Date('2026-03-15T02:00:00Z') });
    let newest: ExportJob['status'] = 'PROGRESS';
    const calls = server({
      list: (query) =>
        query.get('offset') === '0'
          ? ok({ tasks: [job({ task_id: 21, status: newest, progress: 0.3, time_remaining: 60_000 })], total: 21 })
          : // The page's first task is an older export still in progress: it must not set the rhythm.
            ok({ tasks: [job({ task_id: 11, status: 'SUCCESS' }), job({ task_id: 10, status: 'PROGRESS', progress: 0.5, time_remaining: 1_000 })], total: 21 }),
    });
    renderScreen(<ExportListPage />, { url: '/analysis/export?limit=10&offset=10', account: VIEWER });
    await screen.findByText('11-20 of 21 items');
    const page = () => listCalls(calls).filter((c) => c.query.toString() === 'limit=10&offset=10').length;
    const newestAsked = () => listCalls(calls).filter((c) => c.query.toString() === 'limit=1&offset=0').length;
    await waitFor(() => expect(newestAsked()).toBe(1));
    expect(page()).toBe(1);
    // The newest export (on page 1) is in progress: 5 s.
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(page()).toBe(2);
    expect(newestAsked()).toBe(2);
    // It finished: 30 s, although this page's second export still runs.
    newest = 'SUCCESS';
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(newestAsked()).toBe(3);
    // Once the newest's answer has landed (its reply comes in real time, the clock is fake), the page
    // refreshes 30 s after that moment, whether or not its own 5 s timer fired at it.
    await waitFor(() =>
      expect((queryClient.getQueryData(exportKeys.list({ limit: 1, offset: 0 })) as { tasks: ExportJob[] } | undefined)?.tasks[0]?.status).toBe('SUCCESS'),
    );
    const after = page();
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(page()).toBe(after);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(page()).toBe(after + 1);
    // No newest of its own on the first page: the list's first task is the newest.
    expect(listCalls(calls).every((c) => ['limit=10&offset=10', 'limit=1&offset=0'].includes(c.query.toString()))).toBe(true);
  });

  it('pages the list by limit and offset in the URL', async () => {
    const calls = server({ list: ok({ tasks: [job()], total: 25 }) });
    const { user, router } = renderScreen(<ExportListPage />, { url: PAGE, account: VIEWER });
    expect(await screen.findByText('1-10 of 25 items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(router.state.location.search).toBe('?limit=10&offset=10');
    await waitFor(() => expect(listCalls(calls).map((c) => c.query.toString())).toContain('limit=10&offset=10'));
  });

  it('cancels a running export after asking', async () => {
    const calls = server({ list: ok({ tasks: [job({ task_id: 5, status: 'PROGRESS', progress: 0.1, time_remaining: 20_000 })], total: 1 }) });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    expect(await screen.findByText('10% · Less than a minute remaining')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel Export' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel Export' });
    expect(within(dialog).getByText('Stop this export? Its files will not be kept.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Export' }));
    expect(await screen.findByText(M.cancelled)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/analysis/export-jobs/5/cancel')).toBe(true);
    await waitFor(() => expect(listCalls(calls).length).toBe(2));
  });

  it('offers a viewer Cancel Export on their own running export, as the server allows the creator', async () => {
    const mine = job({ task_id: 8, status: 'PROGRESS', progress: 0.2, time_remaining: 60_000, task_info: { ...job().task_info, user: 1 } });
    const calls = server({ list: ok({ tasks: [mine], total: 1 }) });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: VIEWER });
    await user.click(await screen.findByRole('button', { name: 'Cancel Export' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Cancel Export' })).getByRole('button', { name: 'Cancel Export' }));
    expect(await screen.findByText(M.cancelled)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/analysis/export-jobs/8/cancel')).toBe(true);
  });

  it('lets a viewer export nodes and customers, but neither export a VPP nor cancel (fleet.analysis.export.edit)', async () => {
    server({ list: ok({ tasks: [job({ status: 'PROGRESS', progress: 0.5, time_remaining: 60_000 })], total: 1 }) });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: VIEWER });
    expect(await screen.findByText('In Progress')).toBeInTheDocument();
    expect(screen.getByText('50% · About 1 min remaining')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Export' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'New Export' }));
    const tiles = within(dialog(M.chooseTitle))
      .getAllByRole('button')
      .map((b) => b.getAttribute('data-tile'))
      .filter(Boolean);
    expect(tiles).toEqual([M.tileNodes, M.tileCustomer]);
  });

  it('is refused without fleet.analysis.export.view: no exports shown even when the list answers', async () => {
    server({ list: ok({ tasks: [job()], total: 1 }) });
    renderScreen(<ExportListPage />, { url: PAGE, account: NOBODY });
    expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Export' })).toBeNull();
    expect(screen.queryByRole('button', { name: itemName(`${M.tileVpp}: Greater Sydney`, 'Completed') })).toBeNull();
    expect(screen.queryByText('Completed')).toBeNull();
  });
});

/** Opens New Export and one of its tiles. */
async function openTile(user: ReturnType<typeof renderScreen>['user'], tile: string) {
  await user.click(await screen.findByRole('button', { name: 'New Export' }));
  const chooser = screen.getByRole('dialog', { name: M.chooseTitle });
  // A tile is named by its title and then its text.
  await user.click(within(chooser).getByRole('button', { name: (name) => name.startsWith(`${tile} `) }));
}

/** Picks a day (e.g. '1 March 2026') in a date picker. */
async function pickDay(user: ReturnType<typeof renderScreen>['user'], label: string, dayLabel: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(screen.getByRole('button', { name: dayLabel }));
}

const dialog = (name: string) => screen.getByRole('dialog', { name });
const options = () => screen.getAllByRole('option').map((o) => o.textContent);
const posts = (calls: { method: string; path: string; body: unknown }[]) => calls.filter((c) => c.method === 'POST' && c.path === '/analysis/export-jobs');

describe('New Export', () => {
  it('offers the three tiles, the VPP one only with export edit', async () => {
    server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await user.click(await screen.findByRole('button', { name: 'New Export' }));
    const chooser = dialog(M.chooseTitle);
    expect(
      within(chooser)
        .getAllByRole('button')
        .map((b) => b.getAttribute('data-tile'))
        .filter(Boolean),
    ).toEqual([M.tileVpp, M.tileNodes, M.tileCustomer]);
  });

  it('checks the VPP form before sending: field errors and "Data Export Errors", nothing sent', async () => {
    const calls = server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileVpp);
    const form = dialog(M.operationalTitle);
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    for (const text of [M.powerstationRequired, M.startRequired, M.endRequired, M.metricsRequired]) expect(within(form).getByText(text)).toBeInTheDocument();
    expect(await screen.findByText(M.errorsTitle)).toBeInTheDocument();
    expect(screen.getByText(M.errorsBody)).toBeInTheDocument();
    // A start after the end.
    await pickDay(user, 'Start', '10 March 2026');
    await pickDay(user, 'End', '2 March 2026');
    expect(within(form).getByText(M.startAfterEnd)).toBeInTheDocument();
    expect(within(form).queryByText(M.startRequired)).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('makes Split by Phase and Aggregate by Virtual Power Plant exclude each other, and says so', async () => {
    server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileVpp);
    const split = screen.getByRole('checkbox', { name: M.splitByPhase });
    const aggregate = screen.getByRole('checkbox', { name: M.aggregateByVpp });
    await user.click(aggregate);
    expect(screen.queryByText(M.splitWithAggregate)).toBeNull();
    await user.click(split);
    expect(split).toBeChecked();
    expect(aggregate).not.toBeChecked();
    expect(screen.getByText(M.splitWithAggregate)).toBeInTheDocument();
    await user.click(aggregate);
    expect(aggregate).toBeChecked();
    expect(split).not.toBeChecked();
  });

  it('submits a VPP export: the payload of spec 2 §3, the toast, and the list refreshed with the new export open', async () => {
    let tasks: ExportJob[] = [];
    const calls = server({ list: () => ok({ tasks, total: tasks.length }) });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await screen.findByText('There are no data exports yet. Choose New Export to start one.');
    await openTile(user, M.tileVpp);
    const form = dialog(M.operationalTitle);
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    expect(await screen.findByText(M.errorsTitle)).toBeInTheDocument();
    await user.click(within(form).getByRole('combobox', { name: 'Virtual Power Plant' }));
    await user.click(await screen.findByRole('option', { name: 'Hunter Valley' }));
    await pickDay(user, 'Start', '1 March 2026');
    await pickDay(user, 'End', '2 March 2026');
    expect(screen.getByLabelText('Start')).toHaveTextContent('01/03/2026');
    // No day after today.
    await user.click(screen.getByLabelText('End'));
    expect(screen.getByRole('button', { name: '16 March 2026' })).toBeDisabled();
    await user.click(screen.getByLabelText('End'));
    await user.click(within(form).getByRole('button', { name: M.selectAllMetrics }));
    await user.click(within(form).getByRole('checkbox', { name: M.splitByPhase }));
    // The default interval is 1 hour.
    expect(within(form).getByRole('combobox', { name: M.downsamplingInterval })).toHaveValue('1 hour');
    tasks = [job({ task_id: 9, status: 'PENDING', progress: 0, time_remaining: null })];
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));

    expect(await screen.findByText(M.submittedTitle)).toBeInTheDocument();
    expect(screen.getByText(M.submittedBody)).toBeInTheDocument();
    // The form's warning went with the errors.
    await waitFor(() => expect(screen.queryByText(M.errorsTitle)).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)[0].body).toEqual({
      type: 'operational',
      params: {
        start: day('2026-03-01'),
        end: day('2026-03-03'),
        queries: ['meter_power', 'meter_frequency', 'solar_power', 'battery_power', 'remaining_charge'],
        splitPhases: true,
        aggByPowerstation: false,
        includeSubmeters: false,
        interval: '1h',
        user: 1,
        timezone: ZONE,
        powerstation: 8,
      },
    });
    expect(await screen.findByText('Submitted')).toBeInTheDocument();
    expect(listCalls(calls).length).toBe(2);
  });

  it('sends 5m when the interval is cleared, and offers the metrics by organisation, SGA permission and submeters', async () => {
    const calls = server();
    const network = testAccount([...EDITOR.permissions, 'fleet.node.sga_data.view'], { suborg_type: 'NETWORK' });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: network });
    await openTile(user, M.tileVpp);
    const form = dialog(M.operationalTitle);
    await user.click(within(form).getByRole('combobox', { name: 'Metrics' }));
    // A network sees the network-only metrics; with the SGA permission, meter SGA power; submeter metrics wait for Include Submeter Data.
    expect(options()).toEqual([
      'Meter Power',
      'Meter Voltage',
      'Meter Power Reactive',
      'Meter Frequency',
      'Solar Power',
      'Meter SGA Power',
      'Battery Power',
      'Inverter Power Reactive',
      'Remaining Charge',
      'Meter Current',
    ]);
    await user.click(within(form).getByRole('checkbox', { name: M.includeSubmeters }));
    await user.click(within(form).getByRole('button', { name: M.selectAllMetrics }));
    // The intervals the export offers (spec 2 §9's set that the rollups serve); then clearing the one chosen.
    const interval = within(form).getByRole('combobox', { name: M.downsamplingInterval });
    await user.click(interval);
    expect(options()).toEqual(['5 minutes', '10 minutes', '30 minutes', '1 hour', '6 hours', '12 hours', '1 day', '3 days', '1 week']);
    await user.click(screen.getByRole('option', { name: '6 hours' }));
    expect(interval).toHaveValue('6 hours');
    expect(within(form).queryByText('Cleared, the export uses 5 minutes.')).toBeNull();
    // Mantine hides its clear button from the accessibility tree.
    const clear = form.querySelector('button[aria-label="Clear the interval"]');
    if (!clear) throw new Error('no clear button');
    await user.click(clear);
    expect(interval).toHaveValue('');
    expect(within(form).getByText('Cleared, the export uses 5 minutes.')).toBeInTheDocument();
    await user.click(within(form).getByRole('combobox', { name: 'Virtual Power Plant' }));
    await user.click(await screen.findByRole('option', { name: 'Greater Sydney' }));
    await pickDay(user, 'Start', '1 March 2026');
    await pickDay(user, 'End', '1 March 2026');
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({
      params: {
        interval: '5m',
        includeSubmeters: true,
        start: day('2026-03-01'),
        end: day('2026-03-02'),
        queries: expect.arrayContaining(['submeter_power', 'meter_sga_power']),
      },
    });
    // Every metric a network may export, the submeter ones included.
    expect((posts(calls)[0].body as { params: { queries: string[] } }).params.queries).toHaveLength(12);
  });

  it('shows a retailer without the SGA permission neither network-only metrics nor meter SGA power', async () => {
    server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileNodes);
    await user.click(within(dialog(M.operationalTitle)).getByRole('combobox', { name: 'Metrics' }));
    expect(options()).toEqual(['Meter Power', 'Meter Frequency', 'Solar Power', 'Battery Power', 'Remaining Charge']);
    // The node export has no Aggregate by Virtual Power Plant.
    expect(screen.queryByRole('checkbox', { name: M.aggregateByVpp })).toBeNull();
  });

  it('toasts "Data Export Failure" when the server refuses, and "Data Export Failed" when it fails', async () => {
    const refused = {
      status: 400,
      body: { status: 'ERROR', data: { message: 'An export can cover at most 366 days: choose a later start or an earlier end.' } },
    };
    for (const [reply, title, body] of [
      [refused, M.submitFailureTitle, M.submitFailureBody],
      [{ status: 500, body: { status: 'ERROR', data: { message: 'boom' } } }, M.submitFailedTitle, M.submitFailedBody],
    ] as const) {
      server({ create: reply });
      const { user, unmount } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
      await openTile(user, M.tileCustomer);
      await user.click(within(dialog(M.customerTitle)).getByRole('button', { name: 'Begin Export' }));
      expect(await screen.findByText(title)).toBeInTheDocument();
      expect(screen.getByText(body)).toBeInTheDocument();
      if (reply === refused) expect(screen.getByText(refused.body.data.message)).toBeInTheDocument();
      // The form stays open to be corrected.
      expect(dialog(M.customerTitle)).toBeInTheDocument();
      unmount();
      notifications.clean();
    }
  });

  it('finds nodes by search and lists the chosen ones; none chosen is an error', async () => {
    const calls = server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileNodes);
    const form = dialog(M.operationalTitle);
    const selected = within(form).getByRole('region', { name: 'Selected nodes' });
    expect(within(selected).getByText(M.noNodesSelected)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    expect(within(form).getByText(M.nodesRequired)).toBeInTheDocument();
    await user.type(within(form).getByRole('combobox', { name: 'Nodes' }), 'Bondi');
    await user.click(await screen.findByRole('option', { name: /^5 · Bondi home · NMI 4102000005 · RP-5, Fronius, BYD$/ }, { timeout: 3000 }));
    expect(within(selected).getByText('5 · Bondi home · NMI 4102000005 · RP-5, Fronius, BYD')).toBeInTheDocument();
    expect(within(form).queryByText(M.nodesRequired)).toBeNull();
    const search = calls.find((c) => c.path === '/v2/nodes');
    expect(search?.query.get('f')).toBe('Bondi');
    expect(search?.query.get('limit')).toBe('10');
    await user.click(within(selected).getByRole('button', { name: 'Remove node 5' }));
    expect(within(selected).getByText(M.noNodesSelected)).toBeInTheDocument();
  });

  it('lets a user with only export permissions choose a VPP (the VPP choices) and find nodes', async () => {
    const calls = server({ account: EXPORTER });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EXPORTER });
    await openTile(user, M.tileVpp);
    const vppForm = dialog(M.operationalTitle);
    await user.click(within(vppForm).getByRole('combobox', { name: 'Virtual Power Plant' }));
    expect(await screen.findByRole('option', { name: 'Hunter Valley' })).toBeInTheDocument();
    expect(options()).toEqual(['Greater Sydney', 'Hunter Valley']);
    expect(calls.filter((c) => c.path.endsWith('/powerstations')).map((c) => c.path)).toEqual(['/api/powerstations']);
    await user.click(within(vppForm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await openTile(user, M.tileNodes);
    await user.type(within(dialog(M.operationalTitle)).getByRole('combobox', { name: 'Nodes' }), 'Bondi');
    expect(await screen.findByRole('option', { name: /^5 · Bondi home/ }, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText(M.suggestionsFailed)).toBeNull();
  });

  it('toasts "Failed to load node suggestions." when the search fails', async () => {
    server({ nodes: { status: 500, body: { status: 'ERROR', data: { message: 'boom' } } } });
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileNodes);
    await user.type(within(dialog(M.operationalTitle)).getByRole('combobox', { name: 'Nodes' }), 'Bondi');
    expect(await screen.findByText(M.suggestionsFailed, {}, { timeout: 3000 })).toBeInTheDocument();
  });
});

describe('the node export from a link', () => {
  it('opens with the node of deploymentId chosen and the redirect query prefilled; Cancel goes back', async () => {
    const calls = server();
    const { user, router } = renderScreen(<ExportListPage />, { url: '/fleet-monitoring/nodes/5', account: EDITOR });
    await act(() => router.navigate(`${PAGE}&deploymentId=5&start=2026-03-02&end=2026-03-08&solar=false&battery=true&sga=false`));
    const form = await screen.findByRole('dialog', { name: M.operationalTitle });
    expect(await within(form).findByText('5 · Bondi home · NMI 4102000005 · RP-5, Fronius, BYD')).toBeInTheDocument();
    expect(within(form).getByLabelText('Start')).toHaveTextContent('02/03/2026');
    expect(within(form).getByLabelText('End')).toHaveTextContent('08/03/2026');
    // Without solar: no solar metrics; and only what the graph draws (no Meter Frequency).
    const chosen = Array.from(form.querySelectorAll('.mantine-Pill-label')).map((p) => p.textContent);
    expect(chosen).toEqual(['Meter Power', 'Battery Power', 'Remaining Charge']);
    expect(calls.some((c) => c.path === '/api/nodes/5/detail')).toBe(true);
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleet-monitoring/nodes/5'));
  });

  it('sends the prefilled node export, then leaves the list without the redirect query', async () => {
    const calls = server();
    const { user, router } = renderScreen(<ExportListPage />, {
      url: `${PAGE}&deploymentId=5&start=2026-03-02&end=2026-03-02&solar=true&battery=false&sga=false`,
      account: EDITOR,
    });
    const form = await screen.findByRole('dialog', { name: M.operationalTitle });
    await within(form).findByText('5 · Bondi home · NMI 4102000005 · RP-5, Fronius, BYD');
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({
      type: 'operational',
      params: {
        deploymentUids: [5],
        start: day('2026-03-02'),
        end: day('2026-03-03'),
        queries: ['meter_power', 'solar_power'],
        interval: '1h',
      },
    });
    await waitFor(() => expect(router.state.location.search).toBe('?limit=10&offset=0'));
  });

  it('with deploymentId alone, Cancel closes and leaves the list; a node that cannot be loaded is toasted', async () => {
    server({ nodeDetail: { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } } });
    const { user, router } = renderScreen(<ExportListPage />, { url: `${PAGE}&deploymentId=5`, account: EDITOR });
    const form = await screen.findByRole('dialog', { name: M.operationalTitle });
    expect(await screen.findByText(M.nodeDetailsFailed(5))).toBeInTheDocument();
    expect(within(form).getByText(M.noNodesSelected)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/analysis/export');
    expect(router.state.location.search).toBe('?limit=10&offset=0');
  });
});

describe('New Customer Data Export', () => {
  it('for a retailer: the VPP selector, and the note while no VPP is chosen', async () => {
    const calls = server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: EDITOR });
    await openTile(user, M.tileCustomer);
    const form = dialog(M.customerTitle);
    expect(within(form).getByText(M.retailerNoVpp)).toBeInTheDocument();
    expect(within(form).queryByRole('combobox', { name: M.customerSet })).toBeNull();
    await user.click(within(form).getByRole('combobox', { name: 'Virtual Power Plant' }));
    await user.click(await screen.findByRole('option', { name: 'Greater Sydney' }));
    expect(within(form).queryByText(M.retailerNoVpp)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toEqual({ type: 'customer', params: { powerstation: 7, user: 1, timezone: ZONE } });
  });

  it('for a network: the Customer Set', async () => {
    const calls = server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: testAccount(EDITOR.permissions, { suborg_type: 'NETWORK' }) });
    await openTile(user, M.tileCustomer);
    const form = dialog(M.customerTitle);
    expect(within(form).queryByText(M.retailerNoVpp)).toBeNull();
    const set = within(form).getByRole('combobox', { name: M.customerSet });
    expect(set).toHaveValue(M.allCustomersOnNetwork);
    await user.click(set);
    expect(options()).toEqual([M.allCustomersOnNetwork, M.allCustomersInFleet]);
    await user.click(screen.getByRole('option', { name: M.allCustomersInFleet }));
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toEqual({ type: 'customer', params: { powerstation: null, user: 1, timezone: ZONE, allCustomers: true } });
  });

  it('for an installer: no VPP selector', async () => {
    const calls = server();
    const { user } = renderScreen(<ExportListPage />, { url: PAGE, account: testAccount(EDITOR.permissions, { suborg_type: 'INSTALLER' }) });
    await user.click(await screen.findByRole('button', { name: 'New Export' }));
    expect(within(dialog(M.chooseTitle)).queryByRole('button', { name: M.tileVpp })).toBeNull();
    await user.click(within(dialog(M.chooseTitle)).getByRole('button', { name: (name) => name.startsWith(`${M.tileCustomer} `) }));
    const form = dialog(M.customerTitle);
    expect(within(form).queryByRole('combobox', { name: 'Virtual Power Plant' })).toBeNull();
    expect(within(form).queryByText(M.retailerNoVpp)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Begin Export' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toEqual({ type: 'customer', params: { user: 1, timezone: ZONE } });
    expect(calls.some((c) => c.path.endsWith('/powerstations'))).toBe(false);
  });
});
