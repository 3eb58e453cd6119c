// The forgot-password flow in Chromium, through the link in the .eml file the server writes, and
// the "this was not me" link.
import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { describe, expect, it } from 'vitest';
import { eventually, shown, signIn, useApp } from './support/fixtures.ts';
import { linkTo, waitForMail } from './support/mail.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp(NO_FLEET);

describe('forgot password', () => {
  it('sends a link by e-mail that sets a new password once', async () => {
    const page = await app.page();
    await page.goto('/');
    await (await shown(page.getByRole('link', { name: "I've forgotten my password" }))).click();
    await page.waitForURL('**/password/forgot');
    await eventually(() => page.title()).toBe('Forgot Password | VPP Console');
    await page.getByRole('button', { name: 'Send Password Reset' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.emailRequired));
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByRole('button', { name: 'Send Password Reset' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.resetRequested));

    const mail = await waitForMail(app, 'operator@example.com', /Reset your VPP Console password/);
    const link = linkTo(mail, '/password/reset');
    await page.goto(link);
    await shown(page.getByRole('heading', { name: 'Reset your password' }));
    await eventually(() => page.title()).toBe('Reset Password | VPP Console');
    await page.getByLabel('New password', { exact: true }).fill('Wattle-Sunset-77');
    await page.getByLabel('Confirm new password').fill('Wattle-Sunset-78');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.resetMismatch));
    await page.getByLabel('Confirm new password').fill('Wattle-Sunset-77');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.passwordReset));

    // The link is spent.
    await page.goto(link);
    await shown(page.getByText(/Your reset password link is no longer valid/));
    expect(await page.getByRole('link', { name: 'Forgot Password' }).count()).toBe(1);

    await signIn(await app.page(), 'operator', 'Oscar', 'Wattle-Sunset-77');
  });

  it('deactivates the link from "this was not me" and e-mails support', async () => {
    const page = await app.page();
    await page.goto('/password/forgot');
    await page.getByLabel('Email').fill('newmfa@example.com');
    await page.getByRole('button', { name: 'Send Password Reset' }).click();
    const mail = await waitForMail(app, 'newmfa@example.com', /Reset your VPP Console password/);
    await page.goto(linkTo(mail, '/password/reset/disavow'));
    await shown(page.getByText(PASSWORD_MESSAGES.disavowed));
    await eventually(() => page.title()).toBe('Password Reset Deactivated | VPP Console');
    const support = await waitForMail(app, 'support@localhost', /Password link disavowed: newmfa@example.com/);
    expect(support.text).toContain('have been deactivated');
    await page.goto(linkTo(mail, '/password/reset'));
    await shown(page.getByText(/Your reset password link is no longer valid/));
  });

  it('shows the 404 page for any other /password path', async () => {
    const page = await app.page();
    await page.goto('/password/elsewhere');
    await shown(page.getByText('This page could not be found.'));
  });
});
