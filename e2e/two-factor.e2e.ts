// Two-factor sign-in: the code screen for `mfa`, the set-up screen for `newmfa`, remember this browser.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser.ts';
import { eventually, gone, shown, useApp } from './support/fixtures.ts';
import { authenticator } from './support/totp.ts';

const app = useApp();

// One code source per user for the whole file: the server accepts each time step once per user.
const maya = authenticator('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');

const CODE_LENGTH = 'Your code should be 6 digits.';
const REJECTED = '6-digit code rejected. Please try again.';
const INVALID = 'Invalid 6-digit code.';

const codeField = (page: Page) => page.getByLabel('6-digit code');
const verifyButton = (page: Page) => page.getByRole('button', { name: 'Verify' });

async function toCodeScreen(page: Page, username: string) {
  await page.goto('/');
  await logIn(page, username);
  await shown(codeField(page));
}

async function enterCode(page: Page, code: string, opts: { remember?: boolean } = {}) {
  await codeField(page).fill(code);
  if (opts.remember) await page.getByLabel('Remember this browser for 2 weeks').check();
  await verifyButton(page).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await shown(page.getByRole('heading', { name: 'Log in' }));
}

describe('the code screen', () => {
  it('asks mfa for a code after the password, and checks its length as it is typed', async () => {
    const page = await app.page();
    await toCodeScreen(page, 'mfa');
    await shown(page.getByRole('heading', { name: 'Two-factor authentication' }));
    expect(await page.getByText('Enter the 6-digit code from your authenticator app.', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Remember this browser for 2 weeks').isChecked()).toBe(false);
    expect(await page.getByTestId('totp-uri').count()).toBe(0);

    await codeField(page).fill('12345');
    await verifyButton(page).click();
    await shown(page.getByText(CODE_LENGTH, { exact: true }));
    expect(await codeField(page).getAttribute('aria-invalid')).toBe('true');

    await codeField(page).pressSequentially('6');
    await gone(page.getByText(CODE_LENGTH));
    expect(await codeField(page).getAttribute('aria-invalid')).not.toBe('true');
    // Spaces are not digits that count.
    await codeField(page).fill('123 45');
    await verifyButton(page).click();
    await shown(page.getByText(CODE_LENGTH, { exact: true }));
  });

  it('rejects a wrong code with both messages, and clears them when the code changes', async () => {
    const page = await app.page();
    await toCodeScreen(page, 'mfa');
    await enterCode(page, await maya.wrong());

    expect(await (await shown(page.getByRole('alert'))).textContent()).toBe(REJECTED);
    await shown(page.getByText(INVALID, { exact: true }));
    expect(await page.getByRole('heading', { name: 'Welcome, Maya' }).count()).toBe(0);

    await codeField(page).pressSequentially('1');
    await gone(page.getByRole('alert'));
    await gone(page.getByText(INVALID));
  });

  it('enters the app with the right code, and refuses the same code a second time', async () => {
    const page = await app.page();
    await toCodeScreen(page, 'mfa');
    await enterCode(page, await maya.next());
    await shown(page.getByRole('heading', { name: 'Welcome, Maya' }));
    await eventually(() => page.title()).toBe('Dashboard | VPP Console');

    const other = await app.page();
    await toCodeScreen(other, 'mfa');
    await enterCode(other, maya.previous());
    const alert = await shown(other.getByRole('alert'));
    expect(await alert.textContent()).toBe(`${REJECTED} This code has already been used. Wait for the next code and try again.`);
    await shown(other.getByText(INVALID, { exact: true }));
    expect(await other.getByRole('heading', { name: 'Welcome, Maya' }).count()).toBe(0);
  });

  it('Back to login returns to the login panel', async () => {
    const page = await app.page();
    await toCodeScreen(page, 'mfa');
    await page.getByRole('button', { name: 'Back to login' }).click();
    await shown(page.getByLabel('Username or email'));
    expect(await codeField(page).count()).toBe(0);
  });
});

describe('remember this browser', () => {
  it('skips the code at the next login in the same browser, but not in another', async () => {
    const page = await app.page();
    await toCodeScreen(page, 'mfa');
    await enterCode(page, await maya.next(), { remember: true });
    await shown(page.getByRole('heading', { name: 'Welcome, Maya' }));

    await logOut(page);
    await logIn(page, 'mfa');
    await shown(page.getByRole('heading', { name: 'Welcome, Maya' }));
    expect(await codeField(page).count()).toBe(0);

    const other = await app.page();
    await toCodeScreen(other, 'mfa');
  });
});

describe('setting up two-factor', () => {
  it('shows newmfa the QR code and key, takes a first code, and asks for codes from then on', async () => {
    const page = await app.page();
    await page.goto('/');
    await logIn(page, 'newmfa');
    await shown(page.getByRole('heading', { name: 'Set up two-factor authentication' }));
    expect(
      await page
        .getByText('Your organisation requires a second factor. Scan this code with an authenticator app, then enter the 6-digit code it shows.')
        .isVisible(),
    ).toBe(true);
    await shown(page.getByRole('img', { name: 'Authenticator QR code' }));

    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const uri = new URL((await page.getByTestId('totp-uri').textContent())?.trim() ?? '');
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('VPP Console');
    expect(decodeURIComponent(uri.pathname)).toContain('newmfa@example.com');

    const ned = authenticator(secret);
    await enterCode(page, await ned.wrong());
    await shown(page.getByText(INVALID, { exact: true }));
    await enterCode(page, await ned.next());
    await shown(page.getByRole('heading', { name: 'Welcome, Ned' }));

    const again = await app.page();
    await toCodeScreen(again, 'newmfa');
    await shown(again.getByRole('heading', { name: 'Two-factor authentication' }));
    expect(await again.getByRole('heading', { name: 'Set up two-factor authentication' }).count()).toBe(0);
    expect(await again.getByTestId('totp-secret').count()).toBe(0);
    await enterCode(again, await ned.next());
    await shown(again.getByRole('heading', { name: 'Welcome, Ned' }));
  });
});
