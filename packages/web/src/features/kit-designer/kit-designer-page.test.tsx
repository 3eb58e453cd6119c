import { screen, waitFor, within } from '@testing-library/react';
import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { designOrder, type KitCatalogue } from '@vpp/shared/kit-designer/rules';
import type { BatteryType, InverterType } from '@vpp/shared/kit-designer/schemas';
import { MESSAGES } from '@vpp/shared/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { KitDesignerPage } from './kit-designer-page.tsx';

const inverter = (id: number, displayName: string, patch: Partial<InverterType>): InverterType => ({
  id,
  code: `INV-${id}`,
  displayName,
  manufacturer: 'Test',
  allInOne: false,
  pvCompatible: true,
  phases: 1,
  ratedPowerW: 5000,
  compatibleBatteryTypes: [1],
  imageUrl: '/kit/hybrid-inverter.svg',
  ...patch,
});
const battery = (id: number, displayName: string): BatteryType => ({
  id,
  code: `BAT-${id}`,
  displayName,
  manufacturer: 'Test',
  usableCapacityWh: 10000,
  imageUrl: '/kit/hv-battery.svg',
});
const CATALOGUE: KitCatalogue = {
  inverterTypes: [
    inverter(1, 'Hybrid 5 kW', {}),
    inverter(2, 'Hybrid 10 kW three-phase', { phases: 3, compatibleBatteryTypes: [1, 2] }),
    inverter(3, 'All-in-one AC', { allInOne: true, pvCompatible: null, compatibleBatteryTypes: [3] }),
    inverter(4, 'Battery inverter', { pvCompatible: false, compatibleBatteryTypes: [2] }),
  ],
  batteryTypes: [battery(1, 'Battery one'), battery(2, 'Battery two'), battery(3, 'AIO battery')],
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** The kit API: the catalogue (failing the first `optionFailures` times), the design check by the shared rules, and the e-mail. */
function stubApi(opts: { optionFailures?: number; designStatus?: number; emailStatus?: number } = {}) {
  const calls: Call[] = [];
  let failures = opts.optionFailures ?? 0;
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: url.pathname, body });
    const json = (status: number, reply: object) => new Response(JSON.stringify(reply), { status, headers: { 'content-type': 'application/json' } });
    const failure = { status: 'ERROR', error: 'internal', message: 'Something went wrong', data: { message: 'Something went wrong' } };
    if (url.pathname === '/ordering/kit-options') {
      if (failures-- > 0) return json(500, failure);
      return json(200, { status: 'OK', data: CATALOGUE });
    }
    if (url.pathname === '/ordering/design') {
      if (opts.designStatus) return json(opts.designStatus, failure);
      return json(200, { status: 'OK', data: designOrder(body, CATALOGUE) });
    }
    if (url.pathname === '/ordering/email') {
      if (opts.emailStatus) return json(opts.emailStatus, failure);
      return json(200, { status: 'OK', data: { sentTo: ['ingrid@example.test'] } });
    }
    return json(404, { status: 'ERROR', message: 'Not found' });
  });
  return calls;
}

function renderPage(permissions = ['fleet.kit_designer']) {
  queryClient.clear();
  return renderScreen(<KitDesignerPage />, { account: testAccount(permissions), url: '/ordering/kit-designer' });
}

async function start(user: ReturnType<typeof renderPage>['user']) {
  const button = await screen.findByRole('button', { name: 'Get Started' });
  await waitFor(() => expect(button).toBeEnabled(), { timeout: 5000 });
  await user.click(button);
  return screen.findByRole('dialog', { name: 'Kit Builder' });
}

async function choose(user: ReturnType<typeof renderPage>['user'], box: HTMLElement, option: string) {
  await user.click(box);
  await user.click(await screen.findByRole('option', { name: option }));
}

afterEach(() => vi.unstubAllGlobals());

describe('the kit designer page', () => {
  it('shows the checklist, and refuses without fleet.kit_designer', async () => {
    const calls = stubApi();
    renderPage([]);
    expect(await screen.findByText(MESSAGES.notAuthorized)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get Started' })).toBeNull();
    // Nothing is asked of the server that it would refuse.
    expect(calls.filter((c) => c.url === '/ordering/kit-options')).toEqual([]);
  });

  it('retries the options until they load, without a failure message', async () => {
    const calls = stubApi({ optionFailures: 2 });
    const { user } = renderPage();
    await start(user);
    expect(calls.filter((c) => c.url === '/ordering/kit-options')).toHaveLength(3);
    expect(screen.queryByText(KIT_MESSAGES.loadFailed)).toBeNull();
  });

  it('shows the failure and a Retry when the options never load', async () => {
    stubApi({ optionFailures: 10 });
    renderPage();
    expect((await screen.findAllByText(KIT_MESSAGES.loadFailed, {}, { timeout: 8000 })).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get Started' })).toBeDisabled();
  }, 15_000);

  it('applies the change rules, attaches the server’s errors, reaches Summary, e-mails, and resets on close', async () => {
    const calls = stubApi();
    const { user } = renderPage();
    let dialog = await start(user);
    // Site Details: a single-phase site (the default) with one new inverter.
    await user.type(within(dialog).getByRole('textbox', { name: 'New inverters' }), '{Backspace}1');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    const system = await within(dialog).findByRole('group', { name: 'System 1' });
    const field = (name: string) => within(system).getByRole('combobox', { name });
    const solar = () => within(system).getByRole('switch', { name: 'Solar connected' });

    // The all-in-one: no Not Connected; choosing solar phases connects solar.
    await choose(user, field('Inverter'), 'All-in-one AC');
    await user.click(field('Battery'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['AIO battery']);
    await user.click(screen.getByRole('option', { name: 'AIO battery' }));
    await choose(user, field('Solar phases'), 'Single-phase');
    expect(solar()).toBeChecked();
    // Disconnecting solar clears the phases.
    await user.click(solar());
    expect(field('Solar phases')).toHaveValue('');
    // The battery inverter takes no solar; the chosen battery of another inverter shows its error.
    await user.click(solar());
    await choose(user, field('Inverter'), 'Battery inverter');
    expect(solar()).not.toBeChecked();
    expect(solar()).toBeDisabled();
    expect(within(system).getByText(KIT_MESSAGES.batteryIncompatible)).toBeInTheDocument();
    await user.click(field('Battery'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([KIT_MESSAGES.notConnected, 'Battery two', 'AIO battery']);
    await user.click(screen.getByRole('option', { name: 'Battery two' }));

    // A three-phase inverter on the single-phase site: the server's error on its field.
    await choose(user, field('Inverter'), 'Hybrid 10 kW three-phase');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(system).findByText(KIT_MESSAGES.inverterPhases)).toBeInTheDocument();
    // Changing the system clears what the server said about it.
    await choose(user, field('Inverter'), 'Hybrid 5 kW');
    expect(within(system).queryByText(KIT_MESSAGES.inverterPhases)).toBeNull();
    expect(within(system).getByText(KIT_MESSAGES.batteryIncompatible)).toBeInTheDocument();
    await choose(user, field('Battery'), 'Battery one');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));

    const table = await within(dialog).findByRole('table', { name: 'Kit order' });
    expect(within(table).getByRole('row', { name: /^1L Monitoring header: single-phase grid meter 1 1 — 1$/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /^INV-1 Hybrid 5 kW 1 1 — 1$/ })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reference notes' }), 'Job 7');
    await user.click(within(dialog).getByRole('button', { name: 'Email order' }));
    expect(await within(dialog).findByText(KIT_MESSAGES.emailSent)).toBeInTheDocument();
    const sent = calls.find((c) => c.url === '/ordering/email');
    expect(sent?.body).toMatchObject({ referenceNotes: 'Job 7', design: { gridPhases: 1 }, order: { lines: expect.any(Array) } });

    // Back clears the order; a new order resets 'Email sent'.
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).queryByRole('table', { name: 'Kit order' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('table', { name: 'Kit order' });
    expect(within(dialog).queryByText(KIT_MESSAGES.emailSent)).toBeNull();

    // Closing resets the builder.
    // The modal's own close button (the footer's Close does the same).
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Kit Builder' })).toBeNull());
    dialog = await start(user);
    expect(within(dialog).getByRole('textbox', { name: 'New inverters' })).toHaveValue('0');
    // About 75 user steps through three steps of a modal: 34 s on this 2-core machine under a load of 20, beyond the default 30 s.
  }, 90_000);

  it('toasts when the design cannot be checked or the order cannot be e-mailed', async () => {
    stubApi({ designStatus: 500 });
    const { user } = renderPage();
    const dialog = await start(user);
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(KIT_MESSAGES.validateFailed)).toBeInTheDocument();
    vi.unstubAllGlobals();

    stubApi({ emailStatus: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByRole('table', { name: 'Kit order' });
    await user.click(within(dialog).getByRole('button', { name: 'Email order' }));
    expect(await screen.findByText(KIT_MESSAGES.emailFailed)).toBeInTheDocument();
    expect(within(dialog).queryByText(KIT_MESSAGES.emailSent)).toBeNull();
  });
});
