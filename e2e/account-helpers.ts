// Helpers of the account e2e tests (account-*.e2e.ts): one server and browser per file, signed-in
// pages, and the .eml files the server writes to DATA_DIR/outbox.
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launch, logIn, newPage } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

export interface AccountApp {
  server(): RunningServer;
  /** A fresh browser context (service workers blocked, so that page routes and waits see every request). */
  page(opts?: BrowserContextOptions): Promise<Page>;
  /** A fresh page signed in as a demo user, on the dashboard. */
  signedIn(username: string, password?: string): Promise<Page>;
}

/** Starts the real server (demo data, no simulated fleet: these screens do not need it) and Chromium for the file. */
export function useAccountApp(env: Record<string, string> = {}): AccountApp {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SIMULATOR: 'false', ...env }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const app: AccountApp = {
    server() {
      if (!server) throw new Error('the server has not started');
      return server;
    },
    async page(opts = {}) {
      if (!server || !browser) throw new Error('the server has not started');
      return newPage(browser, server.url, { serviceWorkers: 'block', ...opts });
    },
    async signedIn(username, password) {
      const page = await app.page({ permissions: ['clipboard-read', 'clipboard-write'] });
      await page.goto('/');
      await logIn(page, username, password);
      await page.getByRole('button', { name: 'User menu' }).waitFor({ timeout: 30_000 });
      return page;
    },
  };
  return app;
}

/** Waits until the locator is visible and answers it. */
export async function shown(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Waits for an e-mail to an address whose subject matches, written by the job worker to the outbox. */
export async function waitForMail(server: RunningServer, to: string, subject: RegExp, timeoutMs = 15_000): Promise<Mail> {
  const dir = path.join(server.dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files) {
      const m = await simpleParser(fs.readFileSync(path.join(dir, f)));
      const address = (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address;
      if (address === to && subject.test(m.subject ?? '')) return { to: address, subject: m.subject ?? '', text: m.text ?? '' };
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${subject} in ${dir}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The path and query of the first link in the mail to the given path. */
export function linkTo(mail: Mail, pathname: string): string {
  const url = mail.text
    .match(/https?:\/\/\S+/g)
    ?.map((u) => new URL(u))
    .find((u) => u.pathname === pathname);
  if (!url) throw new Error(`no ${pathname} link in: ${mail.text}`);
  return url.pathname + url.search;
}

/**
 * Adds notifications for a demo user straight into the server's SQLite database, as the fleet
 * would through notifyUser; `ageS` puts each that many seconds in the past.
 */
export function addNotifications(server: RunningServer, username: string, items: { summary: string; body: string; ageS: number; read?: boolean }[]) {
  const db = new DatabaseSync(path.join(server.dataDir, 'console.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const u = db.prepare('select id, organisation_id from users where username = ?').get(username) as { id: number; organisation_id: number };
    const now = Math.floor(Date.now() / 1000);
    const insert = db.prepare('insert into notifications (organisation_id, user_id, summary, body, created_at, read_at) values (?, ?, ?, ?, ?, ?)');
    for (const n of items) insert.run(u.organisation_id, u.id, n.summary, n.body, now - n.ageS, n.read ? now : null);
  } finally {
    db.close();
  }
}
