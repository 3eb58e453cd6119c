import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSTRAINTS, predictionsOf, VPP } from '../../test/event-fixtures.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { NewDispatchModal } from './new-dispatch-modal.tsx';

const EVERY = ['fleet.dispatches.any', 'fleet.dispatches.edit', 'fleet.dispatches.strategy', 'fleet.dispatches.powerFactor', 'fleet.powerstations.any'];
const EDIT_ONLY = ['fleet.dispatches.any', 'fleet.dispatches.edit'];

type Reply = { status: number; body: unknown };

/** The server of the modal's calls; `create` answers POST /dispatch, `price` GET /dispatch/price. */
function server(opts: { create?: Reply; price?: Reply; messages?: unknown[]; constraints?: object } = {}) {
  const calls: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  const replies: Record<string, Reply> = {
    '/api/powerstations': { status: 200, body: { result: [VPP], total: 1 } },
    '/api/powerstations/7/constraints': { status: 200, body: { status: 'OK', data: opts.constraints ?? CONSTRAINTS } },
    '/api/powerstations/7/predictions': { status: 200, body: { status: 'OK', data: predictionsOf(3) } },
    '/dispatch/messages': { status: 200, body: { status: 'OK', data: { messages: opts.messages ?? [] } } },
    '/dispatch/price': opts.price ?? {
      status: 200,
      body: { status: 'OK', dispatchPrice: -4.25, tradingPrice: 131.5, region: 'NSW1', multipleRegions: false, reason: null },
    },
    '/dispatch': opts.create ?? { status: 200, body: { status: 'OK', data: { id: 42 } } },
  };
  const fetch = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const r = replies[url.pathname] ?? { status: 404, body: { status: 'ERROR', data: { message: 'Not found' } } };
    return new Response(JSON.stringify(r.body), { status: r.status, headers: { 'content-type': 'application/json' } });
  };
  vi.stubGlobal('fetch', fetch);
  return calls;
}

function open(permissions: string[], patch: Parameters<typeof testAccount>[1] = {}) {
  const onClose = vi.fn();
  const r = renderScreen(<NewDispatchModal opened onClose={onClose} powerstationId={7} />, {
    url: '/virtual-power-plants/dispatches',
    account: testAccount(permissions, patch),
  });
  return { ...r, onClose };
}

/** Types a power into the number input beside the slider and leaves it. */
async function setPower(kw: string) {
  const input = await screen.findByRole('textbox', { name: 'Power' });
  await waitFor(() => expect(input).toBeEnabled());
  fireEvent.change(input, { target: { value: kw } });
  fireEvent.blur(input);
}

// Toasts live in Mantine's store, which outlives a test's DOM.
afterEach(() => notifications.clean());

describe('New Dispatch modal', () => {
  it('executes a discharge: the POST body, the toast, the new dispatch page', async () => {
    const calls = server({ messages: [{ title: 'Heatwave', customerMessage: 'Thanks for helping tonight.', createdAt: 1_700_000_000 }] });
    const { user, router, onClose } = open(EVERY);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Virtual Power Plant' })).toHaveValue('Greater Sydney'));
    await setPower('-5');
    // The prefilled message is the most recent one; the strategy is offered for a discharge.
    expect(await screen.findByText('Customer message: Heatwave')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Uniform' }));
    expect(await screen.findByLabelText('Dispatch price')).toHaveTextContent('-$4.25');

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByText(DISPATCH_MESSAGES.confirm)).toBeInTheDocument();
    expect(screen.getByText('Discharge 5.0 kW')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Execute' }));

    expect(await screen.findByText(DISPATCH_MESSAGES.executed)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/virtual-power-plants/dispatches/42'));
    expect(onClose).toHaveBeenCalled();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({
      powerstation: 7,
      duration: 14_400,
      realPowerP: -5,
      powerFactor: 1,
      powerFactorLeadLag: null,
      customerMessage: 'Thanks for helping tonight.',
      messageTitle: 'Heatwave',
      strategy: 'uniform',
    });
  });

  it('prefills the most recent previous message again when the modal is closed and opened again', async () => {
    server({ messages: [{ title: 'Heatwave', customerMessage: 'Thanks for helping tonight.', createdAt: 1_700_000_000 }] });
    function Harness() {
      const [opened, setOpened] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setOpened(true)}>
            Reopen
          </button>
          <NewDispatchModal opened={opened} onClose={() => setOpened(false)} powerstationId={7} />
        </>
      );
    }
    renderScreen(<Harness />, { url: '/virtual-power-plants/dispatches', account: testAccount(EVERY) });
    await setPower('-5');
    expect(await screen.findByText('Customer message: Heatwave')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Customer message: Heatwave')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    await setPower('-5');
    expect(await screen.findByText('Customer message: Heatwave')).toBeInTheDocument();
  });

  it('shows the server’s refusal and stays put when the reply is an ERROR', async () => {
    server({ create: { status: 400, body: { status: 'ERROR', error: 'dispatch_overlaps', message: 'x', data: { message: DISPATCH_MESSAGES.overlaps(3) } } } });
    const { user, router } = open(EVERY);
    await setPower('-5');
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText(DISPATCH_MESSAGES.overlaps(3))).toBeInTheDocument();
    expect(screen.queryByText(DISPATCH_MESSAGES.executeFailed)).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/virtual-power-plants/dispatches');
  });

  it("says 'Failed to execute Dispatch.' when the server fails", async () => {
    server({ create: { status: 500, body: { status: 'ERROR', error: 'internal', message: 'Internal error', data: { message: 'Internal error' } } } });
    const { user, router } = open(EVERY);
    await setPower('-5');
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    expect(await screen.findByText(DISPATCH_MESSAGES.executeFailed)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/virtual-power-plants/dispatches');
  });

  it('keeps Confirm disabled below power factor 1 until leading or lagging is chosen', async () => {
    server();
    const { user } = open(EVERY);
    await setPower('-5');
    const pf = screen.getByRole('slider', { name: 'Power factor' });
    await waitFor(() => expect(pf).not.toHaveAttribute('data-disabled'));
    act(() => pf.focus());
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(pf).toHaveAttribute('aria-valuenow', '0.95'));
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Lagging' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled());
  });

  it('without the strategy and power factor permissions: neither control, and neither sent', async () => {
    const calls = server();
    const { user } = open(EDIT_ONLY);
    await setPower('-5');
    expect(screen.queryByRole('slider', { name: 'Power factor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Greedy' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    await screen.findByText(DISPATCH_MESSAGES.executed);
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ strategy: null, powerFactor: null });
  });

  it('asks no prices of a NETWORK user without fleet.dispatches.marketTrader', async () => {
    const calls = server();
    open(EDIT_ONLY, { suborg_type: 'NETWORK' });
    await setPower('-5');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/powerstations/7/predictions').length).toBeGreaterThan(0));
    expect(calls.some((c) => c.path === '/dispatch/price')).toBe(false);
    expect(screen.queryByLabelText('Dispatch price')).not.toBeInTheDocument();
  });

  it('shows the two price warnings when the prices fail to load', async () => {
    server({ price: { status: 500, body: { status: 'ERROR', data: { message: 'Internal error' } } } });
    open(EVERY);
    expect(await screen.findByText(DISPATCH_MESSAGES.pricesFailed)).toBeInTheDocument();
    expect(screen.getByText(DISPATCH_MESSAGES.tradingPricesFailed)).toBeInTheDocument();
  });

  it('asks for constraints once per settled change, 300 ms after the last', async () => {
    const calls = server();
    open(EVERY);
    const input = await screen.findByRole('textbox', { name: 'Power' });
    await waitFor(() => expect(input).toBeEnabled());
    for (const kw of ['-1', '-2', '-3', '-4']) {
      fireEvent.change(input, { target: { value: kw } });
      fireEvent.blur(input);
    }
    const asked = () => calls.filter((c) => c.path === '/api/powerstations/7/constraints').map((c) => c.query.get('realPowerP'));
    await waitFor(() => expect(asked()).toContain('-4'));
    expect(asked()).not.toContain('-2');
  });

  it('Cancel in the message view restores the earlier message; Save Message keeps the edit', async () => {
    server();
    const { user } = open(EVERY);
    await setPower('-5');
    expect(await screen.findByText('Customer message: GridCredits Event')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    expect(screen.getByRole('figure', { name: 'Phone preview' })).toHaveTextContent(DISPATCH_MESSAGES.defaultMessageText);
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Heatwave');
    expect(screen.getByRole('figure', { name: 'Phone preview' })).toHaveTextContent('Heatwave');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Customer message: GridCredits Event')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit message' }));
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Heatwave');
    await user.click(screen.getByRole('button', { name: 'Save Message' }));
    expect(await screen.findByText('Customer message: Heatwave')).toBeInTheDocument();
  });

  it('warns of a VPP without battery nodes and keeps Confirm disabled', async () => {
    server({
      constraints: {
        ...CONSTRAINTS,
        realPowerPMin: 0,
        realPowerPMax: 0,
        realPowerAvailable: false,
        powerFactorAvailable: false,
        powerFactorLeadLag: [],
        deploymentsAvailable: 0,
        powerFactorConstraintMessage: DISPATCH_MESSAGES.noBatteryNodes,
      },
    });
    open(EVERY);
    expect(await screen.findByText(DISPATCH_MESSAGES.noBatteryNodes)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Power' })).toBeDisabled();
  });
});
