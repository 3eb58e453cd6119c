import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import type { BillingItem, BillingMonth, Invoice } from '@vpp/shared/billing/schemas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { BillingSearchPage } from './billing-search-page.tsx';
import { BillingSummaryPage } from './billing-summary-page.tsx';
import { InvoicesPage } from './invoices-page.tsx';

const VIEWER = testAccount(['fleet.billing.gridcredits.view']);
const INVOICE_VIEWER = testAccount(['fleet.myReposit.billing']);
const ADMIN = testAccount(['fleet.administrator']);
const NOBODY = testAccount(['fleet.node.any']);

// "Today" is fixed: 15 March 2026, 13:00 in Sydney (the account's zone). Only Date is faked.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T02:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  notifications.clean();
  notifications.cleanQueue();
  queryClient.clear();
  vi.unstubAllGlobals();
});

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

const month = (m: Partial<BillingMonth> = {}): BillingMonth => ({
  date: '2026-02',
  start: '2026-02-01',
  end: '2026-02-28',
  value: 1234.5,
  count: 310,
  eventCount: 3,
  customerCount: 104,
  ...m,
});
const item = (i: Partial<BillingItem> = {}): BillingItem => ({
  id: 1,
  nmi: '4102000001',
  day: '2026-02-03',
  ts: 1770087600,
  type: 'Spot Price',
  amount: 4.567,
  rate: 0.31234,
  cost: 1.43,
  eventKind: 'dispatch',
  eventId: 9,
  event: 'Dispatch 9',
  ...i,
});
const itemsReply = (items: BillingItem[], eventCount: number) => ({
  status: 'OK',
  data: { items, total: items.length, totalCost: items.reduce((s, i) => s + i.cost, 0), eventCount },
});
const invoice = (i: Partial<Invoice> = {}): Invoice => ({
  id: 12,
  number: 'INV-000012',
  date: '2026-03-01',
  period: '2026-02',
  total: 1650,
  gst: 150,
  paid: false,
  downloadURL: '/invoices/12/INV-000012.pdf',
  ...i,
});

describe('the GridCredits monthly summary', () => {
  it('lists the months with value, line items, events and customers, and the customers credited', async () => {
    const api = stubFetch({
      '/billing/monthly': {
        status: 'OK',
        data: { months: [month({ date: '2026-03', start: '2026-03-01', end: '2026-03-31', value: 10, count: 2, eventCount: 1, customerCount: 2 }), month()] },
      },
      '/billing/customers': {
        status: 'OK',
        data: {
          interval: 'month',
          items: [
            { date: '2026-02-01', customerCount: 104 },
            { date: '2026-03-01', customerCount: 2 },
          ],
        },
      },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { user, router } = renderScreen(<BillingSummaryPage />, { url: '/gridcredits/billing', account: VIEWER });
    const table = await screen.findByRole('table', { name: 'Monthly summary' });
    expect(headers(table)).toEqual(['Month', 'Value (AUD)', 'Line Items', 'Events', 'Customers']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(cells(rows[0])).toEqual(['March 2026', '$10.00', '2', '1', '2']);
    expect(cells(rows[1])).toEqual(['February 2026', '$1,234.50', '310', '3', '104']);
    const counts = await screen.findByRole('table', { name: 'Customers credited' });
    await waitFor(() => expect(within(counts).getAllByRole('row')).toHaveLength(3));
    expect(cells(within(counts).getAllByRole('row')[1])).toEqual(['March 2026', '2']);
    expect(api.calls.map((c) => c.url)).toContain('/billing/customers?interval=month');

    await user.click(screen.getByRole('radio', { name: 'Week' }));
    await waitFor(() => expect(api.calls.map((c) => c.url)).toContain('/billing/customers?interval=week'));

    await user.click(rows[1]);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/gridcredits/billing/search?start=2026-02-01&end=2026-02-28');
    // This month's transactions are searched up to today.
    await user.click(within(screen.getByRole('table', { name: 'Monthly summary' })).getAllByRole('row')[1]);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/gridcredits/billing/search?start=2026-03-01&end=2026-03-15');
  });

  it('offers Search Transactions, and says when there are no credits', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        '/billing/monthly': { status: 'OK', data: { months: [] } },
        '/billing/customers': { status: 'OK', data: { interval: 'month', items: [] } },
      }).fetch,
    );
    const { user, router } = renderScreen(<BillingSummaryPage />, { url: '/gridcredits/billing', account: VIEWER });
    expect(await screen.findAllByText('No GridCredits transactions have been found')).toHaveLength(2);
    await user.click(screen.getByRole('link', { name: 'Search Transactions' }));
    expect(router.state.location.pathname).toBe('/gridcredits/billing/search');
  });

  it('toasts a load failure', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<BillingSummaryPage />, { url: '/gridcredits/billing', account: VIEWER });
    expect(await screen.findByText('Failed to load the GridCredits monthly summary.')).toBeInTheDocument();
  });

  it('is refused without fleet.billing.gridcredits.view', async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<BillingSummaryPage />, { url: '/gridcredits/billing', account: INVOICE_VIEWER });
    expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Search Transactions' })).toBeNull();
  });
});

describe('the transaction search', () => {
  const URL = '/gridcredits/billing/search?start=2026-02-01&end=2026-02-28';

  it('shows the line items (a blank type as Support Request, a curtailment credit at its fixed rate) and both CSV buttons when the range has events', async () => {
    const api = stubFetch({
      '/billing/items': itemsReply(
        [
          item(),
          item({ id: 2, nmi: '4102000002', type: '', amount: 1000.5, rate: 0.1, cost: 100.05, eventKind: 'rert', eventId: 3, event: 'RERT dispatch 3' }),
          item({
            id: 3,
            nmi: '4102000003',
            type: 'Curtailment',
            amount: 2.5,
            rate: 0.083,
            cost: 0.21,
            eventKind: 'curtailment',
            eventId: 4,
            event: 'Curtailment 4',
          }),
        ],
        3,
      ),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<BillingSearchPage />, { url: URL, account: VIEWER });
    const table = await screen.findByRole('table', { name: 'GridCredits transactions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(headers(table)).toEqual(['NMI', 'Day', 'Type', 'Event', 'Amount (kWh)', 'Rate ($/kWh)', 'Cost (AUD)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(cells(rows[0])).toEqual(['4102000001', '03/02/2026', 'Spot Price', 'Dispatch 9', '4.57', '$0.3123', '$1.43']);
    expect(cells(rows[1])).toEqual(['4102000002', '03/02/2026', 'Support Request', 'RERT dispatch 3', '1,000.50', '$0.1000', '$100.05']);
    expect(cells(rows[2])).toEqual(['4102000003', '03/02/2026', 'Curtailment', 'Curtailment 4', '2.50', '$0.0830', '$0.21']);
    expect(screen.getByText('3 events · 3 line items · $101.69')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Events CSV' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Summary CSV' })).toBeInTheDocument();
    expect(api.calls[0].url).toBe('/billing/items?start=2026-02-01&end=2026-02-28&limit=10&offset=0');
    expect(screen.getByLabelText('From')).toHaveTextContent('01/02/2026');
    expect(screen.getByLabelText('To')).toHaveTextContent('28/02/2026');
  });

  it('writes a negative price with its sign before the dollar, as the cost beside it', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/billing/items': itemsReply([item({ amount: 1.2, rate: -0.0066, cost: -0.01 })], 1) }).fetch);
    renderScreen(<BillingSearchPage />, { url: URL, account: VIEWER });
    const table = await screen.findByRole('table', { name: 'GridCredits transactions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(cells(within(table).getAllByRole('row')[1]).slice(4)).toEqual(['1.20', '-$0.0066', '-$0.01']);
  });

  it('says when nothing is found, and offers no CSV', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/billing/items': itemsReply([], 0) }).fetch);
    renderScreen(<BillingSearchPage />, { url: URL, account: VIEWER });
    expect(await screen.findByText('No GridCredits transactions have been found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Events CSV' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Summary CSV' })).toBeNull();
  });

  it('downloads each CSV through a single-use link for its exact path, the summary from month start to month end', async () => {
    const api = stubFetch({
      '/billing/items': itemsReply([item({ day: '2026-02-10' })], 1),
      '/billing/download-token': { status: 'OK', data: { token: 'once', expiresAt: 0, url: '/billing/events/csv?start=2026-02-10&end=2026-02-20&token=once' } },
    });
    vi.stubGlobal('fetch', api.fetch);
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { user } = renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search?start=2026-02-10&end=2026-02-20', account: VIEWER });
    await user.click(await screen.findByRole('button', { name: 'Events CSV' }));
    expect(screen.getByText('1 event · 1 line item · $1.43')).toBeInTheDocument();
    await waitFor(() => expect(clicked).toEqual(['/billing/events/csv?start=2026-02-10&end=2026-02-20&token=once']));
    await user.click(screen.getByRole('button', { name: 'Summary CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    const asked = api.calls.filter((c) => c.url === '/billing/download-token');
    expect(asked.map((c) => [c.method, c.body])).toEqual([
      ['POST', { path: '/billing/events/csv?start=2026-02-10&end=2026-02-20' }],
      ['POST', { path: '/billing/month/csv?start=2026-02-01&end=2026-02-28' }],
    ]);
    // The session's token is never in a link.
    expect(clicked.every((href) => !href.includes('Bearer') && href.includes('token=once'))).toBe(true);
  });

  it("ends this month's Summary CSV today, not after it", async () => {
    const api = stubFetch({
      '/billing/items': itemsReply([item({ day: '2026-03-02' })], 1),
      '/billing/download-token': { status: 'OK', data: { token: 'once', expiresAt: 0, url: '/billing/month/csv?token=once' } },
    });
    vi.stubGlobal('fetch', api.fetch);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search?start=2026-03-02&end=2026-03-14', account: VIEWER });
    await user.click(await screen.findByRole('button', { name: 'Summary CSV' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.url === '/billing/download-token')?.body).toEqual({ path: '/billing/month/csv?start=2026-03-01&end=2026-03-15' }),
    );
  });

  it('starts at this month so far, searches the chosen range, and puts it in the URL', async () => {
    const api = stubFetch({ '/billing/items': itemsReply([], 0) });
    vi.stubGlobal('fetch', api.fetch);
    const { user, router } = renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search', account: VIEWER });
    expect(screen.getByLabelText('From')).toHaveTextContent('01/03/2026');
    expect(screen.getByLabelText('To')).toHaveTextContent('15/03/2026');
    expect(api.calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.state.location.search).toBe('?start=2026-03-01&end=2026-03-15&offset=0');
    await waitFor(() => expect(api.calls.map((c) => c.url)).toEqual(['/billing/items?start=2026-03-01&end=2026-03-15&limit=10&offset=0']));
  });

  it('offers no day after today in the To picker, nor after To in the From picker', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    const { user } = renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search', account: VIEWER });
    await user.click(screen.getByLabelText('To'));
    const day = (label: string) => screen.getByRole('button', { name: label });
    expect(day('15 March 2026')).not.toBeDisabled();
    expect(day('16 March 2026')).toBeDisabled();
    await user.click(day('10 March 2026'));
    expect(screen.getByLabelText('To')).toHaveTextContent('10/03/2026');
    await user.click(screen.getByLabelText('From'));
    expect(day('10 March 2026')).not.toBeDisabled();
    expect(day('11 March 2026')).toBeDisabled();
  });

  it('refuses a range after today or inverted from the URL, and asks nothing', async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search?start=2026-03-01&end=2026-03-16', account: VIEWER });
    expect(screen.getByRole('alert')).toHaveTextContent('The end date must not be after today.');
    expect(screen.getByText('The end date must not be after today.', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    expect(api.calls).toEqual([]);
  });

  it('refuses a start after the end', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search?start=2026-02-10&end=2026-02-01', account: VIEWER });
    expect(screen.getByRole('alert')).toHaveTextContent('The start date must not be after the end date.');
  });

  it('refuses a malformed date', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<BillingSearchPage />, { url: '/gridcredits/billing/search?start=01/02/2026&end=2026-02-01', account: VIEWER });
    expect(screen.getByRole('alert')).toHaveTextContent('start must be a date as YYYY-MM-DD.');
  });

  it('toasts a load failure', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<BillingSearchPage />, { url: URL, account: VIEWER });
    expect(await screen.findByText('Failed to load GridCredits transactions.')).toBeInTheDocument();
  });

  it('is refused without fleet.billing.gridcredits.view', async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<BillingSearchPage />, { url: URL, account: INVOICE_VIEWER });
    expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Search' })).toBeNull();
  });
});

describe('the invoices', () => {
  it('shows date (and invoice number), total in AUD, paid and the PDF; a viewer cannot change paid', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch({
        '/billing/invoices': {
          status: 'OK',
          data: {
            invoices: [
              invoice(),
              invoice({ id: 11, number: 'INV-000011', date: '2026-02-01', total: 99.9, paid: true, downloadURL: '/invoices/11/INV-000011.pdf' }),
            ],
            canMarkPaid: false,
          },
        },
      }).fetch,
    );
    renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: INVOICE_VIEWER });
    const table = await screen.findByRole('table', { name: 'Invoices' });
    expect(headers(table)).toEqual(['Date', 'Total (AUD)', 'Paid', 'Download']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(cells(rows[0])).toEqual(['01/03/2026INV-000012', '$1,650.00', 'Unpaid', 'PDF']);
    expect(cells(rows[1])).toEqual(['01/02/2026INV-000011', '$99.90', 'Paid', 'PDF']);
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('says when there are none', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/billing/invoices': { status: 'OK', data: { invoices: [], canMarkPaid: false } } }).fetch);
    renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: INVOICE_VIEWER });
    expect(await screen.findByText('No invoices.')).toBeInTheDocument();
  });

  it('downloads the PDF through a single-use link', async () => {
    const api = stubFetch({
      '/billing/invoices': { status: 'OK', data: { invoices: [invoice()], canMarkPaid: false } },
      '/billing/download-token': { status: 'OK', data: { token: 'once', expiresAt: 0, url: '/invoices/12/INV-000012.pdf?token=once' } },
    });
    vi.stubGlobal('fetch', api.fetch);
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { user } = renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: INVOICE_VIEWER });
    await user.click(await screen.findByRole('button', { name: 'PDF of INV-000012' }));
    await waitFor(() => expect(clicked).toEqual(['/invoices/12/INV-000012.pdf?token=once']));
    expect(api.calls.find((c) => c.url === '/billing/download-token')).toMatchObject({ method: 'POST', body: { path: '/invoices/12/INV-000012.pdf' } });
  });

  it('toasts when no link could be made, and follows none', async () => {
    vi.stubGlobal('fetch', stubFetch({ '/billing/invoices': { status: 'OK', data: { invoices: [invoice()], canMarkPaid: false } } }).fetch);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: INVOICE_VIEWER });
    await user.click(await screen.findByRole('button', { name: 'PDF of INV-000012' }));
    expect(await screen.findByText('Failed to start the download.')).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
  });

  it("lets the platform's billing administrator mark an invoice paid, and not the invoiced organisation's", async () => {
    vi.stubGlobal('fetch', stubFetch({ '/billing/invoices': { status: 'OK', data: { invoices: [invoice()], canMarkPaid: false } } }).fetch);
    const first = renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: ADMIN });
    expect(await screen.findByText('Unpaid')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    first.unmount();
    queryClient.clear();
    const api = stubFetch({
      '/billing/invoices': { status: 'OK', data: { invoices: [invoice()], canMarkPaid: true } },
      '/billing/invoices/12/paid': { status: 'OK', data: invoice({ paid: true }) },
    });
    vi.stubGlobal('fetch', api.fetch);
    const { user } = renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: ADMIN });
    const toggle = await screen.findByRole('switch', { name: 'Paid INV-000012' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText('Invoice marked as paid')).toBeInTheDocument();
    expect(api.calls.find((c) => c.url === '/billing/invoices/12/paid')).toMatchObject({ method: 'PUT', body: { paid: true } });
  });

  it('toasts a load failure', async () => {
    vi.stubGlobal('fetch', stubFetch({}).fetch);
    renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: INVOICE_VIEWER });
    expect(await screen.findByText('Failed to load invoices.')).toBeInTheDocument();
  });

  it('is refused without fleet.myReposit.billing', async () => {
    const api = stubFetch({});
    vi.stubGlobal('fetch', api.fetch);
    renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: VIEWER });
    expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Invoices' })).toBeNull();
  });
});

it('shows neither page to a user without the billing permissions', async () => {
  vi.stubGlobal('fetch', stubFetch({}).fetch);
  renderScreen(<InvoicesPage />, { url: '/my-reposit/billing', account: NOBODY });
  expect(await screen.findByText('You do not have the required permissions to perform this action.')).toBeInTheDocument();
});
