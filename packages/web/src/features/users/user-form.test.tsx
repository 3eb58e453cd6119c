import { screen } from '@testing-library/react';
import { ADMINISTRATOR } from '@vpp/shared/permissions/registry';
import { USER_MESSAGES } from '@vpp/shared/users/schemas';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderScreen, testAccount } from '../../test/render.tsx';
import { availablePermissionsQueryOptions } from './api.ts';
import { UserForm } from './user-form.tsx';

const GRANTABLE = [
  { name: ADMINISTRATOR, displayName: 'Administrator', description: 'Every permission' },
  { name: 'fleet.myReposit.users', displayName: 'Users', description: 'Manage the users of the organisation' },
  { name: 'fleet.node.any', displayName: 'Fleet Monitoring', description: 'See the fleet' },
];

function renderForm(props: Partial<Parameters<typeof UserForm>[0]> = {}) {
  queryClient.setQueryData(availablePermissionsQueryOptions.queryKey, GRANTABLE as never);
  const onSubmit = vi.fn();
  const screenApi = renderScreen(
    <UserForm submitLabel="Create User" busy={false} serverError={null} cancelTo="/my-reposit/users" onSubmit={onSubmit} {...props} />,
    {
      account: testAccount([ADMINISTRATOR]),
    },
  );
  return { ...screenApi, onSubmit };
}

describe('UserForm', () => {
  it('groups the permission toggles by area and offers Cancel back to where the user came from', () => {
    renderForm();
    expect(screen.getByRole('group', { name: 'Account' })).toHaveTextContent('Administrator');
    expect(screen.getByRole('group', { name: 'Account' })).toHaveTextContent('Users');
    expect(screen.getByRole('group', { name: 'Fleet' })).toHaveTextContent('Fleet Monitoring');
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/my-reposit/users');
  });

  it("shows the spec's messages for a missing given name, surname and email, and does not submit", async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(screen.getByText(USER_MESSAGES.givenNameRequired)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.surnameRequired)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.emailRequired)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an email address that is not one', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('Email'), 'rita-at-example');
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(screen.getByText(USER_MESSAGES.emailInvalid)).toBeInTheDocument();
  });

  it('submits the names, the email and the permissions switched on', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('Given name'), 'Una');
    await user.type(screen.getByLabelText('Surname'), 'User');
    await user.type(screen.getByLabelText('Email'), 'una@example.test');
    await user.click(screen.getByRole('switch', { name: /^Fleet Monitoring/ }));
    await user.click(screen.getByRole('button', { name: 'Create User' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ givenName: 'Una', surname: 'User', email: 'una@example.test', permissions: ['fleet.node.any'] }),
    );
  });

  it('does not let an administrator switch off their own administrator permission', () => {
    renderForm({ user: { id: 1, givenName: 'Rita', surname: 'Retailer', email: 'rita@example.test', permissions: [ADMINISTRATOR] } });
    const admin = screen.getByRole('switch', { name: /^Administrator/ });
    expect(admin).toBeChecked();
    expect(admin).toBeDisabled();
    expect(screen.getByText(USER_MESSAGES.selfAdministrator)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Users/ })).toBeEnabled();
  });

  it("lets the administrator switch off another user's administrator permission", () => {
    renderForm({ user: { id: 2, givenName: 'Oscar', surname: 'Operator', email: 'oscar@example.test', permissions: [ADMINISTRATOR] } });
    expect(screen.getByRole('switch', { name: /^Administrator/ })).toBeEnabled();
    expect(screen.queryByText(USER_MESSAGES.selfAdministrator)).not.toBeInTheDocument();
  });

  it('lists apart the permissions the user holds that the editor may not grant', () => {
    renderForm({
      user: { id: 2, givenName: 'Oscar', surname: 'Operator', email: 'oscar@example.test', permissions: ['fleet.node.any', 'fleet.billing.view'] },
    });
    expect(screen.getByText('Also holds, and only someone who holds them can change: fleet.billing.view')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Fleet Monitoring/ })).toBeChecked();
  });
});
