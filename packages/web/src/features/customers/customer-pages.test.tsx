import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { OUTSIDE_NEM_REASONS } from '@vpp/shared/customers/networks';
import type { BillEstimate, Customer, CustomerDetail } from '@vpp/shared/customers/schemas';
import type { Plan } from '@vpp/shared/plans/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { CustomerDetailPage } from './customer-detail-page.tsx';
import { CustomerListPage, nextCapabilities } from './customer-list-page.tsx';

// The map's canvas needs WebGL, which jsdom lacks: the map stands in as its labelled box.
vi.mock('../../components/node-map.tsx', () => ({ NodeMap: (p: { label?: string }) => <div role="img" aria-label={p.label} /> }));

const ALL = ['fleet.customerInformation.any', 'fleet.customerInformation.plans.any'];
const RETAILER = testAccount(ALL);
const RETAILER_NO_PLANS = testAccount(['fleet.customerInformation.any']);
const NETWORK = testAccount(ALL, { suborg_type: 'NETWORK', suborg_name: 'Poles and Wires' });
const INSTALLER = testAccount(ALL, { suborg_type: 'INSTALLER', suborg_name: 'Sparky' });

const customer = (c: Partial<Customer> = {}): Customer => ({
  nmi: '4102000001',
  deploymentUid: 11,
  streetNumber: '12',
  streetName: 'Smith St',
  city: 'Newtown',
  state: 'NSW',
  postcode: '2042',
  addressLine1: '12 Smith St',
  addressLine2: '',
  lat: -33.9,
  long: 151.18,
  capacity: 13.5,
  maxPower: 5,
  agreementVersion: 2,
  agreementDate: '2025-03-01',
  installationStatus: 'COMMISSIONED',
  capabilities: ['BATTERY_DISPATCH', 'FEED_IN_CURTAILMENT'],
  tariff: null,
  currentTariff: null,
  information: null,
  ...c,
});
const listReply = (customers: Customer[], columns: { retailPlan: boolean; information: boolean }, withoutCapabilities = 0) => ({
  status: 'OK',
  data: { customers, total: customers.length, withoutCapabilities, columns },
});
const information = { network: { uid: 'ausgrid', name: 'Ausgrid' }, region: 'NSW1', phases: 1, inverterKw: 5, solarKw: 6.6 };
const onPlan = { tariff: { name: 'Sunny TOU', discount: 0 }, currentTariff: { uid: 7, name: 'Sunny TOU', planCode: 'TOU/1 A', discount: 0 } };

afterEach(() => {
  notifications.clean();
  notifications.cleanQueue();
  queryClient.clear();
  vi.unstubAllGlobals();
});

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

describe('the customer list', () => {
  it('shows a retailer NMI, Install Address, Retail Plan and Capabilities, and the Tariff filter', async () => {
    const api = stubFetch({
      '/contracts/customer': listReply([customer(onPlan), customer({ nmi: '4102000002', capabilities: [] })], { retailPlan: true, information: false }, 1),
      '/contracts/plan': { status: 'OK', data: { plans: [], total: 0 } },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { user, router } = renderScreen(<CustomerListPage />, { url: '/customers/manage', account: RETAILER });
    const table = await screen.findByRole('table', { name: 'Customers' });
    expect(headers(table)).toEqual(['NMI', 'Install Address', 'Retail Plan', 'Capabilities']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('4102000001');
    expect(rows[0]).toHaveTextContent('12 Smith St, Newtown NSW 2042');
    expect(rows[0]).toHaveTextContent('Sunny TOUTOU/1 A');
    expect(rows[0]).toHaveTextContent('Battery dispatchFeed-in curtailment');
    expect(rows[1]).toHaveTextContent('None');
    expect(screen.getByRole('combobox', { name: 'Tariff' })).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'Customers without capabilities' })).toHaveTextContent(
      '1 customer has no capabilities: it cannot take part in any event.',
    );
    await user.click(screen.getByRole('button', { name: 'Show them' }));
    expect(router.state.location.search).toContain('capabilities=NONE');
    await waitFor(() => expect(api.calls.some((c) => c.url.includes('capabilities=NONE'))).toBe(true));
    await user.click(rows[0]);
    expect(router.state.location.pathname).toBe('/customers/manage/4102000001');
  });

  it('says a home in WA is outside the NEM in the Retail Plan column, and why on hover (issue 33 item 8)', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        '/contracts/customer': listReply([customer({ nmi: '8001000001', state: 'WA' })], { retailPlan: true, information: false }),
        '/contracts/plan': { status: 'OK', data: { plans: [], total: 0 } },
      }).fetch,
    );
    renderScreen(<CustomerListPage />, { url: '/customers/manage', account: RETAILER });
    const table = await screen.findByRole('table', { name: 'Customers' });
    const cell = within(table).getByText(CUSTOMER_MESSAGES.outsideNem);
    expect(cell).toHaveAttribute('title', OUTSIDE_NEM_REASONS.WEM('Western Power'));
  });

  it('shows a network the Information column, and neither Retail Plan nor Tariff', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/contracts/customer': listReply([customer({ information })], { retailPlan: false, information: true }) }).fetch);
    renderScreen(<CustomerListPage />, { url: '/customers/manage', account: NETWORK });
    const table = await screen.findByRole('table', { name: 'Customers' });
    expect(headers(table)).toEqual(['NMI', 'Install Address', 'Capabilities', 'Information']);
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('AusgridNSW1 · 1 phase · 5 kW inverter · 6.6 kW solar');
    expect(screen.queryByRole('combobox', { name: 'Tariff' })).toBeNull();
    expect(screen.queryByRole('alert', { name: 'Customers without capabilities' })).toBeNull();
  });

  it('shows an installer no network information, and the empty text', async () => {
    const api = stubFetch({ '/contracts/customer': listReply([], { retailPlan: false, information: false }) });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<CustomerListPage />, { url: '/customers/manage?search=smith&capabilities=BATTERY_DISPATCH&limit=50', account: INSTALLER });
    expect(await screen.findByText('No customers have been found for this search criteria')).toBeInTheDocument();
    expect(headers(screen.getByRole('table', { name: 'Customers' }))).toEqual(['NMI', 'Install Address', 'Capabilities']);
    expect(api.calls[0].url).toBe('/contracts/customer?search=smith&capabilities=BATTERY_DISPATCH&limit=50&offset=0');
  });

  it('keeps NONE alone among the chosen capabilities', () => {
    expect(nextCapabilities(['BATTERY_DISPATCH'], ['BATTERY_DISPATCH', 'NONE'])).toEqual(['NONE']);
    expect(nextCapabilities(['NONE'], ['NONE', 'SUBMETER_DATA'])).toEqual(['SUBMETER_DATA']);
    expect(nextCapabilities([], ['FEED_IN_CURTAILMENT'])).toEqual(['FEED_IN_CURTAILMENT']);
  });
});

const detail = (c: Partial<CustomerDetail> = {}): CustomerDetail => ({
  ...customer(onPlan),
  contracts: [{ contractName: 'GridCredits', startDate: '2025-03-01', endDate: null }],
  capabilityHistory: [
    { capability: 'BATTERY_DISPATCH', startDate: '2025-03-01', endDate: null },
    { capability: 'SUBMETER_DATA', startDate: '2025-03-01', endDate: '2025-09-30' },
  ],
  timezone: 'Australia/Sydney',
  subMeters: [],
  ...c,
});
const plan: Plan = {
  uid: 7,
  name: 'Sunny TOU',
  planCode: 'TOU/1 A',
  description: '',
  tariffType: 'TOU',
  operationalNetworkUid: 'ausgrid',
  operationalNetwork: 'Ausgrid',
  startDate: '2026-07-01',
  resetPeriod: null,
  dailyCharge: 1.1,
  feedInTariff: 0.05,
  discount: 0,
  customersCount: 1,
  versions: [],
  rates: [],
  demandRates: [],
  createdAt: 1,
  updatedAt: 1,
};
const bill: BillEstimate = {
  month: '2026-10',
  from: 0,
  to: 0,
  partial: false,
  timezone: 'Australia/Sydney',
  coverage: 1,
  importKwh: 300,
  exportKwh: 120,
  peakDemandKw: null,
  lines: [
    { kind: 'USAGE', label: 'Peak', quantity: 100, unit: 'kWh', rate: 0.45, amountCents: 4500 },
    { kind: 'DAILY', label: 'Daily charge', quantity: 31, unit: 'days', rate: 1.1, amountCents: 3410 },
    { kind: 'FEED_IN', label: 'Feed-in credit', quantity: 120, unit: 'kWh', rate: 0.05, amountCents: -600 },
  ],
  subtotalCents: 7310,
  gstCents: 791,
  totalCents: 8101,
  versions: ['2026-07-01'],
  gridCredits: [
    { event: 'Dispatch 52', eventKind: 'dispatch', eventId: 52, day: '2026-10-14', type: 'Spot Price', amount: 1.5, rate: 0.2, cents: 30 },
    { event: 'Dispatch 64', eventKind: 'dispatch', eventId: 64, day: '2026-10-20', type: 'Spot Price', amount: -1.25, rate: 0, cents: 0 },
  ],
  gridCreditCents: 30,
  netCents: 8071,
};

describe('the customer detail', () => {
  const at = { url: '/customers/manage/4102000001', path: '/customers/manage/:nmi' };

  it("shows the location with the map, the capabilities with 'Ongoing', the current plan with View Plan Details, and the bills with GST apart", async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        '/contracts/customer/4102000001': { status: 'OK', data: detail() },
        '/contracts/customer/4102000001/plan': { status: 'OK', data: { plan, since: '2026-07-01', versionStartDate: '2026-07-01' } },
        '/contracts/customer/4102000001/bill-estimate': {
          status: 'OK',
          data: { plan: { uid: 7, name: 'Sunny TOU', planCode: 'TOU/1 A' }, current: { ...bill, month: '2026-11', partial: true }, last: bill },
        },
      }).fetch,
    );
    renderScreen(<CustomerDetailPage />, { ...at, account: RETAILER });
    expect(screen.getByRole('heading', { name: '4102000001' })).toBeInTheDocument();
    const location = await screen.findByRole('region', { name: 'Location' });
    expect(within(location).getByRole('img', { name: 'Customer location' })).toBeInTheDocument();
    expect(location).toHaveTextContent('12 Smith St, Newtown NSW 2042');

    const caps = screen.getByRole('table', { name: 'Capabilities' });
    expect(headers(caps)).toEqual(['Start Date', 'End Date', 'Capability']);
    expect(within(caps).getAllByRole('row')[1]).toHaveTextContent('01/03/2025OngoingBattery dispatch');
    expect(within(caps).getAllByRole('row')[2]).toHaveTextContent('01/03/202530/09/2025Submeter data');

    const current = screen.getByRole('region', { name: 'Current Plan' });
    expect(await within(current).findByRole('link', { name: 'View Plan Details' })).toHaveAttribute('href', '/customers/plans/TOU%2F1%20A');
    expect(current).toHaveTextContent('$1.1000/day');

    const last = await screen.findByRole('region', { name: 'Last month' });
    expect(last).toHaveTextContent('October 2026');
    expect(last).toHaveTextContent('Peak100 kWh × $0.4500/kWh$45.00');
    expect(last).toHaveTextContent('Feed-in credit120 kWh × $0.0500/kWh-$6.00');
    expect(last).toHaveTextContent('Subtotal (excl. GST)$73.10');
    expect(last).toHaveTextContent('GST (10 %)$7.91');
    expect(last).toHaveTextContent('Total (incl. GST)$81.01');
    // The grid credits of the same days beside the retail lines: a charge the operator ordered credits 0, never a debit.
    const credits = within(last).getByRole('table', { name: 'Last month grid credits' });
    expect(within(credits).getAllByRole('row')[1]).toHaveTextContent('Dispatch 52, 14/10/2026Spot Price · 1.5 kWh given × $0.2000/kWh-$0.30');
    expect(within(credits).getAllByRole('row')[2]).toHaveTextContent('Dispatch 64, 20/10/2026Spot Price · 1.25 kWh charged × $0.0000/kWh$0.00');
    expect(credits).toHaveTextContent('Total after grid credits$80.71');
    expect(screen.getByRole('region', { name: 'This month' })).toHaveTextContent('November 2026 so far');
  });

  it('tells a retailer why a home in the Northern Territory has no plan (issue 33 item 8)', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        '/contracts/customer/2500000001': { status: 'OK', data: detail({ nmi: '2500000001', state: 'NT', tariff: null, currentTariff: null }) },
        '/contracts/customer/2500000001/plan': { status: 'OK', data: { plan: null, since: null, versionStartDate: null } },
      }).fetch,
    );
    renderScreen(<CustomerDetailPage />, { url: '/customers/manage/2500000001', path: '/customers/manage/:nmi', account: RETAILER });
    const current = await screen.findByRole('region', { name: 'Current Plan' });
    expect(await within(current).findByText(OUTSIDE_NEM_REASONS.NT('Power and Water'))).toBeInTheDocument();
  });

  it('shows no plan to a retailer without plans.any, nor to a network, which sees the Information', async () => {
    const api = stubFetch({ '/contracts/customer/4102000001': { status: 'OK', data: detail({ ...onPlan, information }) } });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<CustomerDetailPage />, { ...at, account: RETAILER_NO_PLANS });
    expect(await screen.findByRole('region', { name: 'Capabilities' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Current Plan' })).toBeNull();
    expect(api.calls.map((c) => c.url)).toEqual(['/contracts/customer/4102000001']);
  });

  it('shows a network the Information panel and no plan', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({ '/contracts/customer/4102000001': { status: 'OK', data: detail({ tariff: null, currentTariff: null, information }) } }).fetch,
    );
    renderScreen(<CustomerDetailPage />, { ...at, account: NETWORK });
    const info = await screen.findByRole('region', { name: 'Information' });
    expect(info).toHaveTextContent('Ausgrid');
    expect(screen.queryByRole('region', { name: 'Current Plan' })).toBeNull();
  });

  it("toasts 'Unable to fetch customer details.' and 'Unable to fetch customer plan.' when they fail", async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
    renderScreen(<CustomerDetailPage />, { ...at, account: RETAILER });
    expect(await screen.findAllByText('Unable to fetch customer details.')).not.toHaveLength(0);

    queryClient.clear();
    vi.stubGlobal('fetch', async (input: string) =>
      new URL(input, 'http://localhost').pathname === '/contracts/customer/4102000001'
        ? new Response(JSON.stringify({ status: 'OK', data: detail() }), { headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 500 }),
    );
    renderScreen(<CustomerDetailPage />, { ...at, account: RETAILER });
    expect(await screen.findAllByText('Unable to fetch customer plan.')).not.toHaveLength(0);
  });

  it('says so when the customer is not in the fleet', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<CustomerDetailPage />, { ...at, account: RETAILER });
    expect(await screen.findByText('No such customer in your fleet.')).toBeInTheDocument();
  });
});
