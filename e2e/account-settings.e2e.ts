// User settings in Chromium against the real server: each section, and an API key created in the
// browser then used by a plain HTTP client until it is revoked.
import { API_KEY_MESSAGES } from '@vpp/shared/account/api-keys';
import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { APP_VERSION } from '@vpp/shared/constants';
import { DEMO_MFA_SECRET } from '@vpp/shared/demo';
import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser.ts';
import { eventually, gone, shown, signIn, useApp } from './support/fixtures.ts';
import { NO_FLEET } from './support/server.ts';
import { authenticator } from './support/totp.ts';

// Analytics on (spec 1 §1), pointed at an endpoint the tests intercept.
const STATS = 'https://stats.example.com.au/api/event';
const app = useApp({ ...NO_FLEET, ANALYTICS_DOMAIN: 'console.example.com.au', ANALYTICS_URL: STATS });

describe('user settings', () => {
  it('saves the time zone and the alert email frequency, with the NEVER message', async () => {
    const page = await app.page();
    await signIn(page, 'operator', 'Oscar');
    await page.goto('/user/settings');
    await shown(page.getByText(`Application version ${APP_VERSION}`));
    await page.getByRole('combobox', { name: 'Timezone' }).click();
    await page.getByRole('option', { name: 'Perth (GMT+08:00)' }).click();
    await page.getByRole('button', { name: 'Save' }).first().click();
    await shown(page.getByText('Settings successfully updated.'));

    await page.getByRole('combobox', { name: 'Alert email frequency' }).click();
    await page.getByRole('option', { name: 'Never' }).click();
    await shown(page.getByText('You will not receive any emails about Node alerts.'));
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await page.reload();
    await eventually(() => page.getByRole('combobox', { name: 'Alert email frequency' }).inputValue()).toBe('Never');
    // The browser (Sydney) now differs from the saved zone (Perth): the banner says so (spec 1 §2).
    await shown(page.getByText(/Your user configured timezone differs from your browsers current timezone/));
    await page.getByRole('combobox', { name: 'Alert email frequency' }).click();
    await page.getByRole('option', { name: 'Immediately' }).click();
    await gone(page.getByText('You will not receive any emails about Node alerts.'));
    // No two-factor section without two-factor (spec 1 §2).
    expect(await page.getByRole('heading', { name: 'Multi-Factor Authentication' }).count()).toBe(0);
  });

  it('shows the two-factor section to a user with two-factor, saves the APP preference, and Cancel goes back', async () => {
    const page = await app.page();
    await page.goto('/');
    await logIn(page, 'mfa');
    await (await shown(page.getByLabel('6-digit code'))).fill(await authenticator(DEMO_MFA_SECRET).next());
    await page.getByRole('button', { name: 'Verify' }).click();
    await shown(page.getByRole('heading', { name: 'Welcome, Maya' }));

    // Settings reached inside the console, so Cancel has a console page to go back to (a page opened
    // directly goes to the dashboard instead: navigation.e2e.ts).
    await page.goto('/user/notifications');
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'User Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/user/settings');
    const section = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Multi-Factor Authentication' }) });
    await shown(section.getByText('Your authenticator app is set up.'));
    await eventually(() => section.getByRole('combobox', { name: 'Code preference' }).inputValue()).toBe('Authenticator app');
    await section.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByText('MFA settings successfully updated.'));

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/user/notifications');
  });

  it('changes the password inline: the rules, the server refusal on the confirmation field, then success', async () => {
    const page = await app.page();
    await signIn(page, 'network', 'Nathan');
    await page.goto('/user/settings');
    const form = page.getByRole('form', { name: 'Change password' });
    await (await shown(form.getByRole('button', { name: 'Change Password' }))).click();
    await shown(form.getByText(PASSWORD_MESSAGES.currentRequired));
    await shown(form.getByText(PASSWORD_MESSAGES.inlineNewRequired));
    await shown(form.getByText(PASSWORD_MESSAGES.inlineConfirmRequired));

    await form.getByLabel('Current password').fill('Not-The-Password-1');
    await form.getByLabel('New password', { exact: true }).fill('Wattle-Sunset-77');
    await form.getByLabel('Confirm new password').fill('Wattle-Sunset-78');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await shown(form.getByText(PASSWORD_MESSAGES.inlineMismatch));

    await form.getByLabel('Confirm new password').fill('Wattle-Sunset-77');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await shown(form.getByText(PASSWORD_MESSAGES.currentIncorrect));

    await form.getByLabel('Current password').fill('Solar-Battery-42');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await shown(page.getByText(PASSWORD_MESSAGES.changed));
    // The new password signs in.
    await signIn(await app.page(), 'network', 'Nathan', 'Wattle-Sunset-77');
  });

  it('creates an API key in the browser that a plain HTTP client can use until it is revoked', async () => {
    const page = await app.page({ permissions: ['clipboard-read', 'clipboard-write'] });
    await signIn(page, 'installer', 'Ingrid');
    await page.goto('/user/settings');
    await (await shown(page.getByRole('button', { name: 'Add API Key' }))).click();
    const dialog = page.getByRole('dialog', { name: 'Add API Key' });
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await shown(dialog.getByText(API_KEY_MESSAGES.nameRequired));
    await dialog.getByLabel('Name').fill('Nightly export');
    await dialog.getByLabel('IP whitelist').fill('127.0.0.1 10.0.0.0/255.0.0.0');
    await dialog.getByLabel('Your password').fill('Wrong-Password-1');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await shown(dialog.getByText(API_KEY_MESSAGES.passwordRejected));
    await dialog.getByLabel('Your password').fill('Solar-Battery-42');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await shown(page.getByText(API_KEY_MESSAGES.copied));
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^vppk_/);
    expect(await dialog.getByLabel('New API key').textContent()).toBe(key);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const asKey = () => fetch(`${app.url}/account`, { headers: { 'x-api-key': key } });
    const res = await asKey();
    expect(res.status).toBe(200);
    expect((await res.json()).data.username).toBe('installer');

    // Read-only by default: it reads, and may not change anything.
    const write = await fetch(`${app.url}/api/powerstations`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(403);

    const row = page.getByRole('row', { name: /Nightly export/ });
    await shown(row.getByText('VALID'));
    await shown(row.getByText('View nodes', { exact: true }));
    await row.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke API Key' });
    await revoke.getByLabel('Your password').fill('Solar-Battery-42');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await shown(row.getByText('REVOKED'));
    expect((await asKey()).status).toBe(401);
  });

  it('counts page views with the analytics endpoint, without the query string', async () => {
    const page = await app.page();
    const events: { n: string; u: string; d: string }[] = [];
    await page.route(STATS, async (route) => {
      events.push(route.request().postDataJSON());
      await route.fulfill({ status: 202, body: 'ok' });
    });
    await signIn(page, 'operator', 'Oscar');
    await page.goto('/user/settings?limit=10&offset=0');
    await eventually(() => events.find((e) => new URL(e.u).pathname === '/user/settings')).toMatchObject({ n: 'pageview', d: 'console.example.com.au' });
    expect(events.every((e) => !e.u.includes('?'))).toBe(true);
  });
});
