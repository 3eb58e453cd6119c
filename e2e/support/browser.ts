import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A page in a fresh context, in Sydney. The app's service worker is blocked, so that page routes and
 * response waits see every request the app makes.
 */
export async function newPage(browser: Browser, baseURL: string, opts: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    timezoneId: 'Australia/Sydney',
    locale: 'en-AU',
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
    ...opts,
  });
  return context.newPage();
}

/** Fills the login form, solves the captcha through the real widget, and presses Log In. */
export async function logIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('altcha-widget').getByText("I'm not a robot").click();
  const button = page.getByRole('button', { name: 'Log In' });
  await button.and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
  await button.click();
}
