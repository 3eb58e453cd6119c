import { screen } from '@testing-library/react';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { VppCreatePage } from './vpp-create-page.tsx';

const EDITOR = testAccount(['fleet.powerstations.any', 'fleet.powerstations.edit', 'fleet.node.any']);

function renderCreate() {
  const api = stubFetch({ '/v2/nodes': { deployments: [], total: 0 } });
  vi.stubGlobal('fetch', api.fetch);
  return { ...renderScreen(<VppCreatePage />, { url: '/virtual-power-plants/manage/new', account: EDITOR }), calls: api.calls };
}

describe('New Virtual Power Plant', () => {
  it('refuses a VPP without a name: the message under Name and the toast of spec 2 §8', async () => {
    const { user, calls } = renderCreate();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(VPP_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(await screen.findByText(VPP_MESSAGES.invalidTitle)).toBeInTheDocument();
    expect(screen.getByText(VPP_MESSAGES.invalidOnCreate)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('asks a postcode VPP for its postcodes, and says which ones are not four digits', async () => {
    const { user } = renderCreate();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Sydney batteries');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(screen.getByRole('option', { name: 'Postcode' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(VPP_MESSAGES.postcodeRequired)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /^Postcodes/ }), '2000, 20x1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(VPP_MESSAGES.invalidPostcodes(['20x1']))).toBeInTheDocument();
  });

  it('asks a state VPP for its state', async () => {
    const { user } = renderCreate();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Queensland');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(screen.getByRole('option', { name: 'State' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(VPP_MESSAGES.stateRequired)).toBeInTheDocument();
  });
});
