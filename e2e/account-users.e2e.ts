// Organisation users in Chromium: the list, create with its confirmation and e-mail, view and edit.
import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { USER_MESSAGES } from '@vpp/shared/users/schemas';
import { describe, expect, it } from 'vitest';
import { eventually, shown, signIn, useApp } from './support/fixtures.ts';
import { linkTo, waitForMail } from './support/mail.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp(NO_FLEET);

describe('organisation users', () => {
  it('creates a user who gets a set-password e-mail, opens and edits them', async () => {
    const page = await app.page();
    await signIn(page, 'retailer', 'Rita');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/my-reposit/users?limit=10&offset=0');
    await shown(page.getByRole('link', { name: 'Oscar Operator' }));

    await page.getByRole('link', { name: 'Add User' }).click();
    await page.getByRole('button', { name: 'Create User' }).click();
    await shown(page.getByText(USER_MESSAGES.givenNameRequired));
    await shown(page.getByText(USER_MESSAGES.surnameRequired));
    await shown(page.getByText(USER_MESSAGES.emailRequired));

    await page.getByLabel('Given name').fill('Grace');
    await page.getByLabel('Surname').fill('Hopper');
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByRole('switch', { name: 'View nodes' }).check();
    await page.getByRole('button', { name: 'Create User' }).click();
    await page.getByRole('button', { name: 'Create and Send Email' }).click();
    await shown(page.getByRole('alert').filter({ hasText: USER_MESSAGES.emailTaken }));

    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Create User' }).click();
    await shown(page.getByText(USER_MESSAGES.createConfirm.replace('{email}', 'grace@example.com')));
    await page.getByRole('button', { name: 'Create and Send Email' }).click();
    await shown(page.getByText(USER_MESSAGES.createdTitle));
    await shown(page.getByRole('heading', { name: 'Grace Hopper' }));
    await shown(page.getByText('View nodes'));
    expect(page.url()).toMatch(/\/my-reposit\/users\/\d+$/);

    const mail = await waitForMail(app, 'grace@example.com', /Your new VPP Console account/);
    expect(linkTo(mail, '/password/reset')).toMatch(/^\/password\/reset\?token=/);

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Surname').fill('Hopper-Smith');
    await page.getByRole('switch', { name: 'View VPPs' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByText(USER_MESSAGES.updatedTitle));
    await shown(page.getByRole('heading', { name: 'Grace Hopper-Smith' }));
    await shown(page.getByText('View VPPs'));
  });

  it('does not offer a users manager the edit of someone who holds more than they do', async () => {
    // Rita creates a users manager who holds only Users and View nodes; he sets his password from the e-mail.
    const rita = await app.api('retailer');
    await rita.createUser({
      givenName: 'Mark',
      surname: 'Manager',
      email: 'mark@example.com',
      permissions: ['fleet.myReposit.users', 'fleet.node.view'],
    });
    const mail = await waitForMail(app, 'mark@example.com', /Your new VPP Console account/);
    const page = await app.page();
    await page.goto(linkTo(mail, '/password/reset'));
    // A first password, not a reset: the page says so, and names itself.
    await shown(page.getByRole('heading', { name: 'Set your password' }));
    await eventually(() => page.title()).toBe('Set Password | VPP Console');
    await page.getByLabel('New password', { exact: true }).fill('Wattle-Sunset-77');
    await page.getByLabel('Confirm new password').fill('Wattle-Sunset-77');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.passwordReset));

    const mark = await app.page();
    await signIn(mark, 'mark@example.com', 'Mark', 'Wattle-Sunset-77');
    // Rita holds every permission: the message names the first one Mark lacks.
    const outranked = /^You may not edit this user, because they hold [\w.]+ and you do not\.$/;
    await mark.goto('/my-reposit/users?limit=10&offset=0');
    await (await shown(mark.getByRole('link', { name: 'Rita Retailer' }))).click();
    await shown(mark.getByText(outranked));
    expect(await mark.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await mark.goto(`${mark.url()}/edit`);
    await shown(mark.getByText(outranked));
    expect(await mark.getByLabel('Email').count()).toBe(0);

    // His own record he may edit.
    await mark.goto('/my-reposit/users?limit=10&offset=0');
    await (await shown(mark.getByRole('link', { name: 'Mark Manager' }))).click();
    await shown(mark.getByRole('link', { name: 'Edit', exact: true }));
  });

  it('does not let an administrator revoke their own administrator permission', async () => {
    const page = await app.page();
    await signIn(page, 'network', 'Nathan');
    await page.goto('/my-reposit/users?limit=10&offset=0');
    await (await shown(page.getByRole('link', { name: 'Nathan Network' }))).click();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    const admin = page.getByRole('switch', { name: 'Administrator' });
    await shown(page.getByText(USER_MESSAGES.selfAdministrator));
    await eventually(() => admin.isChecked()).toBe(true);
    await eventually(() => admin.isDisabled()).toBe(true);
  });

  it('hides the Users page from a user without the permission', async () => {
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' }).count()).toBe(0);
  });
});
