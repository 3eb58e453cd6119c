import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONSTRAINTS, VPP } from '../../test/event-fixtures.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { RertDispatchModal } from './rert-dispatch-modal.tsx';
import { epochToLocalDateTime, TERMS_MESSAGES } from './rert-form.ts';

// The New RERT Dispatch modal asks for AEMO's instruction and the reserve contract (issue 33 item 3):
// Confirm waits for them, each field says what is wrong, and Execute sends them with the dispatch.

const EDITOR = ['fleet.rert.any', 'fleet.rert.dispatches.edit', 'fleet.powerstations.any'];
const ZONE = 'Australia/Sydney';

function server() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const replies: Record<string, unknown> = {
    '/api/powerstations': { result: [VPP], total: 1 },
    '/api/powerstations/7/constraints': { status: 'OK', data: CONSTRAINTS },
    '/api/powerstations/7/predictions': {
      status: 'OK',
      data: { interval: 300, prediction: {}, adjustedPrediction: null, warning: null, deployments: 3, market: null },
    },
    '/api/rert-dispatches/messages': { status: 'OK', data: { messages: [] } },
    '/api/rert-dispatches': { status: 'OK', data: { id: 42 } },
  };
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ method: init.method ?? 'GET', path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const body = replies[url.pathname];
    return new Response(JSON.stringify(body ?? { status: 'ERROR', data: { message: 'Not found' } }), {
      status: body ? 200 : 404,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

// By label, not by role: role queries walk the whole modal's accessibility tree, slowly.
const field = (name: string) => screen.getAllByLabelText(name).find((el) => el.tagName === 'INPUT') as HTMLInputElement;
/** datetime-local inputs have no textbox role: found by their label. */
const timeField = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const type = (el: HTMLInputElement, value: string) => {
  fireEvent.change(el, { target: { value } });
  fireEvent.blur(el);
};

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('New RERT Dispatch modal: AEMO instruction and RERT contract', () => {
  it('says what is wrong with each field, holds Confirm until they are complete, and sends them', async () => {
    const calls = server();
    const { user, router } = renderScreen(<RertDispatchModal opened onClose={() => {}} />, {
      url: '/virtual-power-plants/rert-dispatches',
      account: testAccount(EDITOR, { timezone: ZONE }),
    });
    const terms = await screen.findByLabelText('AEMO Instruction and RERT Contract');
    expect(within(terms).getByText(/settled under the contract, never at spot/)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Virtual Power Plant' }));
    await user.click(await screen.findByRole('option', { name: 'Greater Sydney' }));
    const power = await screen.findByRole('textbox', { name: 'Power' });
    await waitFor(() => expect(power).toBeEnabled());
    type(power as HTMLInputElement, '-5');

    const confirm = screen.getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAttribute('title', TERMS_MESSAGES.incomplete);

    // Left blank or wrong: each field's message.
    type(field('AEMO instruction ID'), ' ');
    expect(await screen.findByText(TERMS_MESSAGES.instructionId)).toBeInTheDocument();
    type(field('Contracted reserve (MW)'), '0');
    expect(screen.getByText(TERMS_MESSAGES.contractedMw)).toBeInTheDocument();
    type(field('Availability ($/MW per hour)'), '-1');
    expect(screen.getByText(TERMS_MESSAGES.rate)).toBeInTheDocument();
    type(field('Customers’ share (%)'), '120');
    expect(screen.getByText(TERMS_MESSAGES.customerShare)).toBeInTheDocument();

    // The start is the draft's (four hours ahead): an activation after it, a pre-activation after the activation.
    const startTime = Math.floor(Date.now() / 1000 / 300) * 300 + 4 * 3600;
    const late = epochToLocalDateTime(startTime + 86_400, ZONE);
    type(timeField(/^Activation time/), late);
    expect(screen.getByText(TERMS_MESSAGES.activationAfterStart)).toBeInTheDocument();
    const activation = epochToLocalDateTime(Math.floor(Date.now() / 1000 / 60) * 60, ZONE);
    const preActivation = epochToLocalDateTime(Math.floor(Date.now() / 1000 / 60) * 60 - 3600, ZONE);
    type(timeField(/^Activation time/), activation);
    expect(screen.queryByText(TERMS_MESSAGES.activationAfterStart)).toBeNull();
    type(timeField(/^Pre-activation time/), epochToLocalDateTime(Math.floor(Date.now() / 1000 / 60) * 60 + 60, ZONE));
    expect(screen.getByText(TERMS_MESSAGES.preActivationAfterActivation)).toBeInTheDocument();
    type(timeField(/^Pre-activation time/), preActivation);

    type(field('AEMO instruction ID'), 'AEMO-RERT-0042');
    await user.click(field('Notice category'));
    await user.click(await screen.findByText('Short notice'));
    await user.click(field('LOR condition'));
    await user.click(await screen.findByText('LOR2'));
    type(field('Contract reference'), 'SUNRISE-RERT-2026');
    type(field('Contracted reserve (MW)'), '0.02');
    type(field('Availability ($/MW per hour)'), '10');
    type(field('Pre-activation ($/MWh)'), '100');
    type(field('Activation ($/MWh)'), '500');
    type(field('Usage ($/MWh)'), '1000');
    type(field('Customers’ share (%)'), '40');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled());
    for (const m of Object.values(TERMS_MESSAGES)) expect(screen.queryByText(m)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('AEMO-RERT-0042 (Short notice, LOR2)')).toBeInTheDocument();
    expect(
      screen.getByText(
        'SUNRISE-RERT-2026: 0.02 MW; availability $10/MW per hour; pre-activation $100/MWh; activation $500/MWh; usage $1000/MWh; customers’ share 40 %',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Execute' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/virtual-power-plants/rert-dispatches/42'));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/rert-dispatches');
    expect(post?.body).toMatchObject({
      powerstation: 7,
      realPowerP: -5,
      instruction: { id: 'AEMO-RERT-0042', noticeCategory: 'SHORT_NOTICE', lorCondition: 'LOR2' },
      contract: {
        reference: 'SUNRISE-RERT-2026',
        contractedMw: 0.02,
        availabilityRate: 10,
        preActivationRate: 100,
        activationRate: 500,
        usageRate: 1000,
        customerShare: 0.4,
      },
    });
    const sent = post?.body as { instruction: { preActivationTime: number; activationTime: number } };
    expect(epochToLocalDateTime(sent.instruction.activationTime, ZONE)).toBe(activation);
    expect(epochToLocalDateTime(sent.instruction.preActivationTime, ZONE)).toBe(preActivation);
  }, 120_000);
});
