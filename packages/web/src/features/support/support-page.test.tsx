import { screen, within } from '@testing-library/react';
import { MESSAGES } from '@vpp/shared/messages';
import { SUPPORT_MESSAGES, supportRateLimitMessage, supportSentMessage } from '@vpp/shared/support/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { SupportPage } from './support-page.tsx';

const NODE = {
  id: 42,
  siteLabel: 'Rita’s shed',
  address: { lat: -33.9, lng: 151.18, street: '1 Solar Street', suburb: 'Newtown', state: 'NSW', postcode: '2042', text: '1 Solar Street, Newtown NSW 2042' },
  network: { nmi: '4102000042', network: 'Ausgrid' },
  timezone: 'Australia/Sydney',
  system: { reposit: { serialNumber: 'RPT0000042' }, inverter: [{ brand: 'Fronius' }], battery: [{ brand: 'Tesla' }] },
  state: 'COMMISSIONED',
  status: { ping: { lastTimestamp: 1_750_000_000, connectionOffline: false } },
  displayStatus: 'ONLINE',
  phases: 1,
  hasSolar: true,
  hasBattery: true,
  hasInverter: true,
  solarCapacity: 6.6,
  reposit: { serialNumber: 'RPT0000042', product: 'Reposit Box', state: 'COMMISSIONED', commissionedDate: 1_740_000_000 },
};
// 2025-06-15 14:30 in Sydney.
const SENT = { id: 9, reference: 'SR-7K3M9QWD', subject: 'Battery not charging', category: 'NODE', nodeId: 42, createdAt: 1_749_961_800 };

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** The support API as the page calls it: settings, the list (before and after sending), the node search, and the reply to a POST. */
function stubApi(opts: { formUrl?: string; post?: { status: number; body: object } } = {}) {
  const calls: Call[] = [];
  let stored: object[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: `${url.pathname}${url.search}`, body });
    const json = (status: number, reply: object) => new Response(JSON.stringify(reply), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/support/settings') return json(200, { status: 'OK', data: { formUrl: opts.formUrl ?? null, maxRequestsPerHour: 5 } });
    if (url.pathname === '/v2/nodes') return json(200, { deployments: url.searchParams.get('f') === 'shed' ? [NODE] : [], total: 1 });
    if (url.pathname === '/support/requests' && method === 'GET') return json(200, { status: 'OK', data: { requests: stored, total: stored.length } });
    if (url.pathname === '/support/requests' && method === 'POST') {
      const reply = opts.post ?? { status: 200, body: { status: 'OK', data: SENT } };
      if (reply.status === 200) stored = [SENT];
      return json(reply.status, reply.body);
    }
    return json(404, { status: 'ERROR', message: 'Not found' });
  });
  return calls;
}

function renderPage(permissions = ['fleet.node.any']) {
  queryClient.clear();
  return renderScreen(<SupportPage />, { account: testAccount(permissions), url: '/support-issues?limit=10&offset=0' });
}

const field = (name: string) => screen.getByRole('textbox', { name });

afterEach(() => vi.unstubAllGlobals());

describe('the support page', () => {
  it('starts the console’s own form with the account’s contact details, and names each missing field without sending', async () => {
    const calls = stubApi();
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Support request' });
    expect(field('Name')).toHaveValue('Rita Retailer');
    expect(field('Email')).toHaveValue('rita@example.test');
    expect(await screen.findByText(SUPPORT_MESSAGES.noRequests)).toBeInTheDocument();

    await user.clear(field('Email'));
    await user.type(field('Email'), 'rita at example');
    await user.type(field('Phone'), 'call me');
    await user.click(within(form).getByRole('button', { name: 'Send Request' }));
    for (const message of [
      SUPPORT_MESSAGES.subjectRequired,
      SUPPORT_MESSAGES.categoryRequired,
      SUPPORT_MESSAGES.descriptionRequired,
      SUPPORT_MESSAGES.emailInvalid,
      SUPPORT_MESSAGES.phoneInvalid,
    ]) {
      expect(within(form).getByText(message)).toBeInTheDocument();
    }
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('sends a request about a node found by the fleet search, confirms its reference and lists it', async () => {
    const calls = stubApi();
    const { user } = renderPage();
    await screen.findByRole('form', { name: 'Support request' });
    await user.type(field('Subject'), 'Battery not charging');
    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(screen.getByRole('option', { name: 'A node' }));
    await user.type(screen.getByRole('combobox', { name: 'Node' }), 'shed');
    await user.click(await screen.findByRole('option', { name: 'Rita’s shed · NMI 4102000042 · RPT0000042' }));
    await user.type(field('Description'), 'Stuck at 12% since yesterday.');
    await user.click(screen.getByRole('button', { name: 'Send Request' }));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Request sent: SR-7K3M9QWD');
    expect(status).toHaveTextContent(supportSentMessage('SR-7K3M9QWD', 'rita@example.test'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/support/requests',
        body: {
          subject: 'Battery not charging',
          category: 'NODE',
          nodeId: 42,
          description: 'Stuck at 12% since yesterday.',
          contactName: 'Rita Retailer',
          contactEmail: 'rita@example.test',
          contactPhone: '',
        },
      },
    ]);
    expect(calls.some((c) => c.url === '/v2/nodes?f=shed&limit=10&offset=0')).toBe(true);
    // A fresh form for the next request.
    expect(field('Subject')).toHaveValue('');

    const table = await screen.findByRole('table', { name: 'Your support requests' });
    const row = await within(table).findByRole('row', { name: /SR-7K3M9QWD/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['15/06/2025 14:30', 'SR-7K3M9QWD', 'Battery not charging', 'A node']);
  });

  it('shows the hourly limit’s refusal on the form', async () => {
    stubApi({
      post: {
        status: 429,
        body: { status: 'ERROR', error: 'too_many_requests', message: supportRateLimitMessage(5, 12), data: { message: supportRateLimitMessage(5, 12) } },
      },
    });
    const { user } = renderPage(['fleet.zendesk.edit']);
    await screen.findByRole('form', { name: 'Support request' });
    // Without the fleet's permissions there is no node to pick.
    expect(screen.queryByRole('combobox', { name: 'Node' })).not.toBeInTheDocument();
    await user.type(field('Subject'), 'Invoice question');
    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(screen.getByRole('option', { name: 'Billing' }));
    await user.type(field('Description'), 'Which plan is this?');
    await user.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(supportRateLimitMessage(5, 12));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('frames the help desk’s form when SUPPORT_FORM_URL names one, with a link to open it in a new window', async () => {
    stubApi({ formUrl: 'https://help.example.test/hc/requests/new' });
    renderPage();
    const frame = await screen.findByTitle(SUPPORT_MESSAGES.frameTitle);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'https://help.example.test/hc/requests/new');
    const link = screen.getByRole('link', { name: SUPPORT_MESSAGES.openInNewWindow });
    expect(link).toHaveAttribute('href', 'https://help.example.test/hc/requests/new');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('form', { name: 'Support request' })).not.toBeInTheDocument();
  });

  it('tells a user without the permission that they are not authorised', async () => {
    stubApi();
    renderPage(['fleet.powerstations.view']);
    expect(await screen.findByText(MESSAGES.notAuthorized)).toBeInTheDocument();
  });
});
