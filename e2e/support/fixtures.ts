import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type Api, signInToApi } from './api.ts';
import { launch, logIn, newPage } from './browser.ts';
import { type RunningServer, SMALL_FLEET, startServer } from './server.ts';

export interface App {
  /** The server's origin. */
  readonly url: string;
  /** The server's DATA_DIR (its e-mail outbox is there). */
  readonly dataDir: string;
  /** A page in a fresh browser context (no cookies, no storage), closed after the test. */
  page(opts?: BrowserContextOptions): Promise<Page>;
  /** An API client signed in as the user (without two-factor), for arranging data through the real endpoints. */
  api(username: string, password?: string): Promise<Api>;
}

/**
 * One real server (demo data, a small simulated fleet unless `env` says otherwise) and one Chromium
 * for the test file; every `app.page()` is a fresh context, closed after its test.
 */
export function useApp(env: Record<string, string> = {}): App {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ ...SMALL_FLEET, ...env }), launch()]);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const running = () => {
    if (!server) throw new Error('the server has not started');
    return server;
  };
  return {
    get url() {
      return running().url;
    },
    get dataDir() {
      return running().dataDir;
    },
    async page(opts) {
      const { url } = running();
      if (!browser) throw new Error('the browser has not started');
      const page = await newPage(browser, url, opts);
      contexts.push(page.context());
      return page;
    },
    api: (username, password) => signInToApi(running().url, username, password),
  };
}

/** Opens the console and signs in a user without two-factor; resolves on their dashboard. */
export async function signIn(page: Page, username: string, givenName: string, password?: string) {
  await page.goto('/');
  await logIn(page, username, password);
  await shown(page.getByRole('heading', { name: `Welcome, ${givenName}` }));
}

/** Waits until the locator is visible (and returns it, for chaining). */
export async function shown(locator: Locator, timeout = 30_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/**
 * Polls a value the page settles on (a title, a count, a field's state) until the assertion that
 * follows holds, as patiently as `shown` (expect.poll alone gives up after one second).
 */
export function eventually<T>(read: () => T | Promise<T>, timeout = 30_000) {
  return expect.poll(read, { timeout });
}

/** Waits until the locator is hidden or gone. */
export async function gone(locator: Locator, timeout = 30_000): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout });
}

/** The path and query of the page's URL. */
export const pathOf = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
};

/** Waits for the page's URL to reach a path (client-side navigations included). */
export async function reachPath(page: Page, path: string) {
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path, { timeout: 30_000 });
}
