import { screen, within } from '@testing-library/react';
import { API_KEY_MESSAGES, scopeNotHeldMessage } from '@vpp/shared/account/api-keys';
import { READ_ONLY_PERMISSIONS } from '@vpp/shared/permissions/registry';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { ApiKeysSection } from './api-keys-section.tsx';

const KEY = { keyId: 7, keyName: 'Billing export', ipWhitelist: [], openadrScopes: [], status: 'VALID', createdAt: 1_750_000_000, lastUsedAt: null };

function renderSection(permissions: string[], keys: object[] = []) {
  queryClient.clear();
  const api = stubFetch({ '/account/api-keys': { status: 'OK', data: { keys } } });
  vi.stubGlobal('fetch', api.fetch);
  return { ...renderScreen(<ApiKeysSection />, { account: testAccount(permissions) }), calls: api.calls };
}

/** The scopes picked in the form, as the pills show them. */
const picked = (form: HTMLElement) =>
  within(form).getByRole('combobox', { name: API_KEY_MESSAGES.scopesLabel }).closest('.mantine-MultiSelect-root')?.querySelectorAll('.mantine-Pill-label') ??
  [];

afterEach(() => vi.unstubAllGlobals());

describe('API keys: scopes', () => {
  it('shows each key’s scopes in the list, by their labels', async () => {
    renderSection(['fleet.administrator'], [{ ...KEY, scopes: ['fleet.node.view', 'fleet.powerstations.edit'] }]);
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(within(table).getByRole('columnheader', { name: 'Scopes' })).toBeInTheDocument();
    const row = within(table).getByRole('row', { name: /Billing export/ });
    expect(within(row).getByTitle('fleet.node.view')).toHaveTextContent('View nodes');
    expect(within(row).getByTitle('fleet.powerstations.edit')).toHaveTextContent('Edit VPPs');
  });

  it('sums up a long list of scopes: read-only or how many change things, the first three, and the rest behind +N more', async () => {
    renderSection(['fleet.administrator'], [{ ...KEY, scopes: [...READ_ONLY_PERMISSIONS] }]);
    const row = within(await screen.findByRole('table', { name: 'API keys' })).getByRole('row', { name: /Billing export/ });
    expect(within(row).getByText(`Read-only, ${READ_ONLY_PERMISSIONS.length} permissions`)).toBeInTheDocument();
    expect(within(row).getByText(`+${READ_ONLY_PERMISSIONS.length - 3} more`)).toBeInTheDocument();
  });

  it('starts a new key read-only: the view permissions the user holds, and offers only permissions they hold', async () => {
    const { user } = renderSection(['fleet.powerstations.view', 'fleet.powerstations.edit', 'fleet.node.any']);
    await user.click(await screen.findByRole('button', { name: 'Add API Key' }));
    const form = screen.getByRole('form', { name: 'Add API key' });
    expect([...picked(form)].map((p) => p.textContent)).toEqual(['View VPPs']);
    await user.click(within(form).getByRole('combobox', { name: API_KEY_MESSAGES.scopesLabel }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Nodes', 'Edit VPPs']);
  });

  it('sends the scopes picked, and shows a scope the server refuses on the field', async () => {
    const { user, calls } = renderSection(['fleet.powerstations.view', 'fleet.powerstations.edit']);
    await user.click(await screen.findByRole('button', { name: 'Add API Key' }));
    const form = screen.getByRole('form', { name: 'Add API key' });
    await user.type(within(form).getByLabelText('Name'), 'Writer');
    const scopes = within(form).getByRole('combobox', { name: API_KEY_MESSAGES.scopesLabel });
    // Backspace in the picker takes the last scope off, as it would in the browser.
    await user.type(scopes, '{backspace}');
    expect(picked(form)).toHaveLength(0);
    await user.click(scopes);
    await user.click(screen.getByRole('option', { name: 'Edit VPPs' }));
    await user.type(within(form).getByLabelText('Your password'), 'Solar-Battery-42');
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      calls.push({ method: init.method ?? 'GET', url: input, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(
        JSON.stringify({
          status: 'ERROR',
          error: 'scope_not_held',
          message: scopeNotHeldMessage('fleet.powerstations.edit'),
          data: { message: scopeNotHeldMessage('fleet.powerstations.edit') },
        }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      );
    });
    await user.click(within(form).getByRole('button', { name: 'Create Key' }));
    expect(await within(form).findByText(scopeNotHeldMessage('fleet.powerstations.edit'))).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toMatchObject([{ body: { keyName: 'Writer', ipWhitelist: '', scopes: ['fleet.powerstations.edit'] } }]);
  });

  it("shows a key's OpenADR scopes, and offers them to an administrator only", async () => {
    const admin = renderSection(['fleet.administrator'], [{ ...KEY, scopes: ['fleet.node.view'], openadrScopes: ['read_all', 'write_reports'] }]);
    expect(await screen.findByText('OpenADR: read_all, write_reports')).toBeInTheDocument();
    await admin.user.click(await screen.findByRole('button', { name: 'Add API Key' }));
    expect(within(screen.getByRole('form', { name: 'Add API key' })).getAllByLabelText('OpenADR scopes').length).toBeGreaterThan(0);
    admin.unmount();
    const viewer = renderSection(['fleet.powerstations.view']);
    await viewer.user.click(await screen.findByRole('button', { name: 'Add API Key' }));
    expect(within(screen.getByRole('form', { name: 'Add API key' })).queryAllByLabelText('OpenADR scopes')).toEqual([]);
  });
});
