import { screen, within } from '@testing-library/react';
import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { PASSWORD_REQUIREMENTS } from '@vpp/shared/auth/password-rules';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen, stubFetch, testAccount } from '../../test/render.tsx';
import { PasswordSection } from './password-section.tsx';

function renderSection(replies: Record<string, unknown> = {}) {
  const api = stubFetch(replies);
  vi.stubGlobal('fetch', api.fetch);
  return { ...renderScreen(<PasswordSection />, { account: testAccount([]) }), calls: api.calls };
}

describe('Change password', () => {
  it('lists the password requirements of spec 1 §5 beside the new password', () => {
    renderSection();
    const list = screen.getByRole('list', { name: 'Password requirements' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Not too common', 'At least 8 characters', 'At least 3 of: lower case, upper case, digits, special characters']);
    expect(PASSWORD_REQUIREMENTS).toHaveLength(3);
  });

  it('asks for each of the three fields', async () => {
    const { user, calls } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText(PASSWORD_MESSAGES.currentRequired)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_MESSAGES.inlineNewRequired)).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_MESSAGES.inlineConfirmRequired)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says what a weak new password lacks, and when the confirmation differs', async () => {
    const { user } = renderSection();
    await user.type(screen.getByLabelText('Current password'), 'Old-Secret-1');
    await user.type(screen.getByLabelText('New password'), 'qzxvbk');
    await user.type(screen.getByLabelText('Confirm new password'), 'qzxvbkk');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(
      screen.getByText('The password must have at least 8 characters, must use at least 3 of lower case, upper case, digits and special characters.'),
    ).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_MESSAGES.inlineMismatch)).toBeInTheDocument();
  });

  it('shows an incorrect current password on the confirmation field, as the server refuses it', async () => {
    const { user, calls } = renderSection({ '/password/inline-change': undefined });
    vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
      calls.push({ method: init.method ?? 'GET', url: input, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ status: 'ERROR', error: 'incorrect_password', message: 'Incorrect password' }), { status: 400 });
    });
    await user.type(screen.getByLabelText('Current password'), 'Wrong-Secret-1');
    await user.type(screen.getByLabelText('New password'), 'Solar-Battery-43');
    await user.type(screen.getByLabelText('Confirm new password'), 'Solar-Battery-43');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(PASSWORD_MESSAGES.currentIncorrect)).toBeInTheDocument();
    expect(calls).toMatchObject([{ method: 'POST', body: { oldPassword: 'Wrong-Secret-1', newPassword: 'Solar-Battery-43' } }]);
  });
});
