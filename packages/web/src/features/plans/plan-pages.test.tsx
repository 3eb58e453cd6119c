import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { OUTSIDE_NEM_REASONS } from '@vpp/shared/customers/networks';
import { formatTimeInput } from '@vpp/shared/plans/rules';
import type { Plan, PlanSummary } from '@vpp/shared/plans/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { PlanCreatePage } from './plan-create-page.tsx';
import { PlanEditPage, PlanViewPage } from './plan-detail-page.tsx';
import { PlanListPage } from './plan-list-page.tsx';

const VIEWER = testAccount(['fleet.customerInformation.plans.any']);
const EDITOR = testAccount(['fleet.customerInformation.plans.any', 'fleet.customerInformation.plans.edit']);
const NETWORKS = {
  status: 'OK',
  data: {
    networks: [
      { uid: 'ausgrid', name: 'Ausgrid', states: ['NSW'], nem: true, outsideNem: null },
      { uid: 'energex', name: 'Energex', states: ['QLD'], nem: true, outsideNem: null },
      { uid: 'western-power', name: 'Western Power', states: ['WA'], nem: false, outsideNem: OUTSIDE_NEM_REASONS.WEM('Western Power') },
    ],
  },
};

type Reply = { status?: number; body: unknown };
/** A fetch answering `METHOD /path` (or `/path` for any method) from a table; 404 otherwise. Returns the calls made. */
function api(replies: Record<string, Reply | ((body: unknown) => Reply)>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: `${url.pathname}${url.search}`, body });
    const r = replies[`${method} ${url.pathname}`] ?? replies[url.pathname];
    const reply = typeof r === 'function' ? r(body) : r;
    return new Response(JSON.stringify(reply?.body ?? { status: 'ERROR', error: 'not_found', message: 'Not found', data: { message: 'Not found' } }), {
      status: reply ? (reply.status ?? 200) : 404,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

const touPlan: Plan = {
  uid: 7,
  name: 'Sunny TOU',
  planCode: 'TOU/1 A',
  description: 'Peak in the evening.',
  tariffType: 'TOU',
  operationalNetworkUid: 'ausgrid',
  operationalNetwork: 'Ausgrid',
  startDate: '2026-07-01',
  resetPeriod: null,
  dailyCharge: 1.1,
  feedInTariff: 0.05,
  discount: 0,
  customersCount: 3,
  versions: [],
  rates: [
    {
      label: 'Base Rate',
      isBaseRate: true,
      blocks: [{ onset: 0, price: 0.21 }],
      periods: [{ startTime: '00:00', endTime: '16:00', applicableDays: ['MON'], rate: 'Base Rate' }],
    },
    {
      label: 'Peak',
      isBaseRate: false,
      blocks: [{ onset: 0, price: 0.456789 }],
      periods: [{ startTime: '16:00', endTime: '23:59', applicableDays: ['MON'], rate: 'Peak' }],
    },
  ],
  demandRates: [],
  createdAt: 1,
  updatedAt: 1,
};
touPlan.versions = [
  {
    latest: true,
    startDate: '2026-07-01',
    endDate: null,
    tariffType: 'TOU',
    resetPeriod: null,
    rates: touPlan.rates,
    demandRates: [],
    dailyCharge: 1.1,
    feedInTariff: 0.05,
    discount: 0,
  },
];

afterEach(() => {
  // The toasts' store outlives each render: a file with many toasts would queue past Mantine's limit.
  notifications.clean();
  notifications.cleanQueue();
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('the HH:MM input', () => {
  it('formats as the user types', () => {
    expect(formatTimeInput('0')).toBe('0');
    expect(formatTimeInput('09')).toBe('09');
    expect(formatTimeInput('093')).toBe('09:3');
    expect(formatTimeInput('0930')).toBe('09:30');
    expect(formatTimeInput('09305')).toBe('09:30');
    expect(formatTimeInput('9:')).toBe('09:');
    expect(formatTimeInput('ab1 2x3')).toBe('12:3');
  });
});

async function chooseType(user: ReturnType<typeof renderScreen>['user'], label: string) {
  await user.click(screen.getByRole('combobox', { name: /Plan Type/ }));
  await user.click(await screen.findByRole('option', { name: label }));
}

// Many clicks and keystrokes each: slow on a busy machine.
describe('the plan form', { timeout: 30_000 }, () => {
  const at = { url: '/customers/plans/new', path: '/customers/plans/new' };

  it('regenerates the structure of each plan type, Base Rate first and flagged', async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS } });
    const { user } = renderScreen(<PlanCreatePage />, { ...at, account: EDITOR });
    expect(await screen.findByText('Choose a plan type to set its rates.')).toBeInTheDocument();

    await chooseType(user, 'Time of Use');
    const rates = screen.getByRole('region', { name: 'Rates' });
    const first = within(rates).getByRole('group', { name: 'Rate 1' });
    expect(within(first).getByRole('textbox', { name: /Label/ })).toHaveValue('Base Rate');
    expect(within(first).getByText('Base Rate', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(within(within(rates).getByRole('group', { name: 'Rate 2' })).getByRole('textbox', { name: /Label/ })).toHaveValue('Peak');
    expect(within(rates).getAllByRole('group', { name: /^Period \d$/ })).toHaveLength(2);
    expect(screen.queryByRole('combobox', { name: /Reset Period/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Demand Rates' })).toBeNull();

    await chooseType(user, 'Block');
    expect(within(rates).getAllByRole('group', { name: /^Rate \d$/ })).toHaveLength(1);
    expect(within(rates).getAllByRole('textbox', { name: /Onset/ })).toHaveLength(2);
    expect(within(rates).queryAllByRole('group', { name: /^Period \d$/ })).toHaveLength(0);
    expect(screen.getByRole('combobox', { name: /Reset Period/ })).toBeInTheDocument();
    await user.click(within(rates).getByRole('button', { name: 'Add Block' }));
    expect(within(rates).getAllByRole('textbox', { name: /Onset/ })).toHaveLength(3);
    await user.click(within(rates).getByRole('button', { name: 'Remove block 2' }));
    expect(within(rates).getAllByRole('textbox', { name: /Onset/ })).toHaveLength(2);

    await chooseType(user, 'Time of Use Demand');
    expect(within(rates).getAllByRole('group', { name: /^Rate \d$/ })).toHaveLength(2);
    const demand = screen.getByRole('region', { name: 'Demand Rates' });
    expect(within(demand).getAllByRole('group', { name: /^Demand rate \d$/ })).toHaveLength(1);
    expect(within(demand).getAllByRole('group', { name: /^Demand period \d$/ })).toHaveLength(1);
    expect(within(demand).getByRole('textbox', { name: 'Price ($/kW/day)' })).toBeInTheDocument();

    await chooseType(user, 'Time of Use Block');
    expect(within(within(rates).getByRole('group', { name: 'Rate 2' })).getAllByRole('textbox', { name: /Onset/ })).toHaveLength(2);
    await user.click(within(rates).getByRole('button', { name: 'Add Period' }));
    expect(within(rates).getAllByRole('group', { name: /^Period \d$/ })).toHaveLength(3);
    await user.click(within(rates).getByRole('button', { name: 'Remove period 3' }));
    expect(within(rates).getAllByRole('group', { name: /^Period \d$/ })).toHaveLength(2);
  });

  it('lists WA’s network as outside the NEM, not to be chosen, and says why (issue 33 item 8)', async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS } });
    const { user } = renderScreen(<PlanCreatePage />, { ...at, account: EDITOR });
    expect(await screen.findByLabelText('Networks outside the NEM')).toHaveTextContent(OUTSIDE_NEM_REASONS.WEM('Western Power'));
    await user.click(screen.getByRole('combobox', { name: /Network/ }));
    const wa = await screen.findByRole('option', { name: 'Western Power (not in the NEM)' });
    expect(wa).toHaveAttribute('data-combobox-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Ausgrid' })).not.toHaveAttribute('data-combobox-disabled');
  });

  it('formats period times as typed and prices to 4 decimals', async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS } });
    const { user } = renderScreen(<PlanCreatePage />, { ...at, account: EDITOR });
    await chooseType(user, 'Time of Use');
    const period = screen.getByRole('group', { name: 'Period 1' });
    const start = within(period).getByRole('textbox', { name: 'Start' });
    await user.type(start, '0930');
    expect(start).toHaveValue('09:30');
    const price = within(screen.getByRole('group', { name: 'Rate 1' })).getByRole('textbox', { name: /Price/ });
    await user.type(price, '0.25');
    await user.tab();
    expect(price).toHaveValue('0.2500');
  });

  it("refuses an empty plan in the browser: 'New Plan Errors', and each message on its field", async () => {
    const calls = api({ '/contracts/plan/operational-networks': { body: NETWORKS } });
    const { user } = renderScreen(<PlanCreatePage />, { ...at, account: EDITOR });
    await user.click(await screen.findByRole('button', { name: 'Create Plan' }));
    expect(await screen.findByText('Please correct your errors before continuing.')).toBeInTheDocument();
    expect(screen.getAllByText('New Plan Errors').length).toBeGreaterThan(0);
    for (const m of [
      'Please enter a plan name.',
      'Please enter a plan code.',
      'Please select a plan type.',
      'Please enter a network.',
      'Please enter commencement date.',
      'Please enter a daily charge.',
      'Please enter a feed in tariff.',
    ])
      expect(screen.getByText(m)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('refuses overlapping periods on a shared day, and reset period and period messages', async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS } });
    const { user } = renderScreen(<PlanCreatePage />, { ...at, account: EDITOR });
    await chooseType(user, 'Time of Use');
    const [p1, p2] = screen.getAllByRole('group', { name: /^Period \d$/ });
    await user.type(within(p1).getByRole('textbox', { name: 'Start' }), '0700');
    await user.type(within(p1).getByRole('textbox', { name: 'End' }), '1800');
    await user.click(within(p1).getByRole('checkbox', { name: 'Mon' }));
    await user.type(within(p2).getByRole('textbox', { name: 'Start' }), '1600');
    await user.type(within(p2).getByRole('textbox', { name: 'End' }), '1600');
    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    expect(await screen.findByText('Start time must come before end time.')).toBeInTheDocument();
    expect(screen.getByText('Please select at least one day.')).toBeInTheDocument();

    await user.clear(within(p2).getByRole('textbox', { name: 'End' }));
    await user.type(within(p2).getByRole('textbox', { name: 'End' }), '2000');
    await user.click(within(p2).getByRole('checkbox', { name: 'Mon' }));
    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    const top = await screen.findByRole('alert', { name: 'New Plan Errors' });
    expect(top).toHaveTextContent('There are periods that are currently overlapping, please correct these periods before saving');

    await chooseType(user, 'Block');
    await user.click(screen.getByRole('button', { name: 'Create Plan' }));
    expect(await screen.findByText('Please enter a reset period.')).toBeInTheDocument();
  });

  it('merges the server’s field errors into the form and lists non_field_errors at the top', async () => {
    api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      'GET /contracts/plan/code/TOU%2F1%20A': { body: { status: 'OK', data: touPlan } },
      'PUT /contracts/plan/7': {
        status: 400,
        body: {
          status: 'ERROR',
          error: 'bad_request',
          message: 'This plan name already exists. Each plan must have a unique name.',
          data: {
            message: 'This plan name already exists. Each plan must have a unique name.',
            errors: { name: 'This plan name already exists. Each plan must have a unique name.', 'rates.1.blocks.0.price': 'Please enter a dollar value.' },
            non_field_errors: ['The commencement date must come after the previous version’s (2026-07-01).'],
          },
        },
      },
    });
    const { user } = renderScreen(<PlanEditPage />, {
      url: `/customers/plans/${encodeURIComponent('TOU/1 A')}/edit`,
      path: '/customers/plans/:planCode/edit',
      account: EDITOR,
    });
    const peak = await screen.findByRole('group', { name: 'Rate 2' });
    expect(within(peak).getByRole('textbox', { name: /Price/ })).toHaveValue('0.4568');
    await user.click(screen.getByRole('button', { name: 'Save Plan' }));
    expect(await screen.findByText('Please correct your errors before continuing.')).toBeInTheDocument();
    expect(screen.getAllByText('Plan Errors').length).toBeGreaterThan(0);
    expect(screen.getByRole('textbox', { name: /Plan Name/ })).toHaveAccessibleDescription('This plan name already exists. Each plan must have a unique name.');
    expect(within(peak).getByText('Please enter a dollar value.')).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Plan Errors' })).toHaveTextContent('The commencement date must come after the previous version’s (2026-07-01).');
  });

  it("saves an edit with PUT and the uid, toasts 'Plan Saved' and lands on the plan's page", async () => {
    const calls = api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      'GET /contracts/plan/code/TOU%2F1%20A': { body: { status: 'OK', data: touPlan } },
      'PUT /contracts/plan/7': { body: { status: 'OK', data: { ...touPlan, planCode: 'TOU 2' } } },
    });
    const { user, router } = renderScreen(<PlanEditPage />, {
      url: `/customers/plans/${encodeURIComponent('TOU/1 A')}/edit`,
      path: '/customers/plans/:planCode/edit',
      account: EDITOR,
    });
    const code = await screen.findByRole('textbox', { name: /Plan Code/ });
    await user.clear(code);
    await user.type(code, 'TOU 2');
    await user.click(screen.getByRole('button', { name: 'Save Plan' }));
    expect(await screen.findByText('Plan Saved')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({
      uid: 7,
      planCode: 'TOU 2',
      tariffType: 'TOU',
      startDate: '2026-07-01',
      rates: [
        { label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.2100' }] },
        { label: 'Peak', periods: [{ startTime: '16:00', endTime: '23:59', applicableDays: ['MON'], rate: 'Peak' }] },
      ],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers/plans/TOU%202'));
  });

  it("toasts 'Unable to save your plan.' when the server fails", async () => {
    api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      'GET /contracts/plan/code/TOU%2F1%20A': { body: { status: 'OK', data: touPlan } },
      'PUT /contracts/plan/7': { status: 500, body: { status: 'ERROR', error: 'internal', message: 'Boom', data: { message: 'Boom' } } },
    });
    const { user } = renderScreen(<PlanEditPage />, {
      url: `/customers/plans/${encodeURIComponent('TOU/1 A')}/edit`,
      path: '/customers/plans/:planCode/edit',
      account: EDITOR,
    });
    await user.click(await screen.findByRole('button', { name: 'Save Plan' }));
    expect(await screen.findByText('Unable to save your plan.')).toBeInTheDocument();
  });
});

describe('the plan view', () => {
  const at = { url: `/customers/plans/${encodeURIComponent('TOU/1 A')}`, path: '/customers/plans/:planCode' };

  it('shows the plan read-only by its URL-encoded code, rates with 4 decimals, and Edit only to an editor', async () => {
    const calls = api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      'GET /contracts/plan/code/TOU%2F1%20A': { body: { status: 'OK', data: touPlan } },
    });
    renderScreen(<PlanViewPage />, { ...at, account: VIEWER });
    expect(await screen.findByRole('heading', { name: 'Sunny TOU' })).toBeInTheDocument();
    expect(calls[0].url).toBe('/contracts/plan/code/TOU%2F1%20A');
    const name = screen.getByRole('textbox', { name: 'Plan Name' });
    expect(name).toHaveAttribute('readonly');
    expect(within(screen.getByRole('group', { name: 'Rate 2' })).getByRole('textbox', { name: /Price/ })).toHaveValue('0.4568');
    expect(screen.getByRole('textbox', { name: /Daily Charge/ })).toHaveValue('1.1000');
    expect(screen.queryByRole('button', { name: 'Save Plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Period' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.getByText('3 customers are on this plan.')).toBeInTheDocument();
  });

  it('offers Edit to an editor, linking to the encoded edit route', async () => {
    api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      'GET /contracts/plan/code/TOU%2F1%20A': { body: { status: 'OK', data: touPlan } },
    });
    renderScreen(<PlanViewPage />, { ...at, account: EDITOR });
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/customers/plans/TOU%2F1%20A/edit');
  });

  it("toasts 'Unable to fetch plan.' when the plan fails to load", async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS }, 'GET /contracts/plan/code/TOU%2F1%20A': { status: 500, body: {} } });
    renderScreen(<PlanViewPage />, { ...at, account: VIEWER });
    expect(await screen.findAllByText('Unable to fetch plan.')).not.toHaveLength(0);
  });
});

describe('the plan list', () => {
  const summary = (p: Partial<PlanSummary>): PlanSummary => ({
    uid: 1,
    name: 'Flat Out',
    planCode: 'FLAT-1',
    description: '',
    tariffType: 'FLAT_RATE',
    operationalNetworkUid: 'ausgrid',
    operationalNetwork: 'Ausgrid',
    startDate: '2026-01-01',
    customersCount: 12,
    ...p,
  });

  it('lists Name with code, Network, Plan Type and Customers; sorts by a header, toggling the order', async () => {
    const calls = api({
      '/contracts/plan/operational-networks': { body: NETWORKS },
      '/contracts/plan': {
        body: { status: 'OK', data: { plans: [summary({}), summary({ uid: 2, name: 'Sunny TOU', planCode: 'TOU/1 A', tariffType: 'TOU' })], total: 2 } },
      },
    });
    const { user, router } = renderScreen(<PlanListPage />, { url: '/customers/plans', account: EDITOR });
    const table = await screen.findByRole('table', { name: 'Plans' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Network', 'Plan Type', 'Customers']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Flat OutFLAT-1AusgridFlat Rate12');
    expect(rows[1]).toHaveTextContent('Time of Use');
    expect(screen.getByRole('link', { name: 'New Plan' })).toHaveAttribute('href', '/customers/plans/new');
    expect(calls.find((c) => c.url.startsWith('/contracts/plan?'))?.url).toContain('sort=name&order=asc');

    await user.click(screen.getByRole('button', { name: 'Sort by Customers' }));
    expect(router.state.location.search).toContain('sort=customers&order=asc');
    await user.click(screen.getByRole('button', { name: 'Sort by Customers, ascending' }));
    expect(router.state.location.search).toContain('sort=customers&order=desc');
    await waitFor(() => expect(calls.some((c) => c.url.includes('sort=customers&order=desc'))).toBe(true));

    await user.click(rows[1]);
    expect(router.state.location.pathname).toBe('/customers/plans/TOU%2F1%20A');
  });

  it('shows the empty text and no New Plan to a viewer', async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS }, '/contracts/plan': { body: { status: 'OK', data: { plans: [], total: 0 } } } });
    renderScreen(<PlanListPage />, { url: '/customers/plans?tariffType=TOU', account: VIEWER });
    expect(await screen.findByText('No tariffs have been found.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New Plan' })).toBeNull();
  });

  it("toasts 'Unable to fetch plans.' when the list fails", async () => {
    api({ '/contracts/plan/operational-networks': { body: NETWORKS }, '/contracts/plan': { status: 500, body: {} } });
    renderScreen(<PlanListPage />, { url: '/customers/plans', account: VIEWER });
    expect(await screen.findByText('Unable to fetch plans.')).toBeInTheDocument();
  });
});
