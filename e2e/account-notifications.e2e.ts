// Notifications in Chromium: the header bell, the list with its dates, a detail that marks itself
// read, Mark as Unread, and Mark all as Read.
import { NOTIFICATION_AUTO_READ_MS, NOTIFICATION_MESSAGES } from '@vpp/shared/notifications/schemas';
import { localMidnight } from '@vpp/shared/time';
import { describe, expect, it } from 'vitest';
import { eventually, gone, shown, signIn, useApp } from './support/fixtures.ts';
import { insertNotificationsBySql } from './support/notifications-sql.ts';
import { NO_FLEET } from './support/server.ts';

const app = useApp(NO_FLEET);

describe('notifications', () => {
  it('says when there are none', async () => {
    const page = await app.page();
    await signIn(page, 'installer', 'Ingrid');
    await shown(page.getByRole('link', { name: /0 Unread/ }));
    await page.goto('/user/notifications');
    await shown(page.getByText(NOTIFICATION_MESSAGES.empty));
  });

  it('reads, unreads and marks all read', async () => {
    const now = Math.floor(Date.now() / 1000);
    // The two recent ones today in the account's zone (Sydney) even just after its midnight: the list says 'Today, …'.
    const today = localMidnight('Australia/Sydney', now);
    insertNotificationsBySql(app, 'retailer', [
      { summary: 'Node 1042 went offline', body: 'It **stopped reporting** at 09:12.\n\n<b>not html</b>', createdAt: Math.max(now - 600, today) },
      { summary: 'Node 1042 is back online', body: 'Reporting again.', createdAt: Math.max(now - 300, today) },
      { summary: 'Node 2001 went offline', body: 'Earlier.', createdAt: now - 86400 - 3600 },
    ]);
    // Read through the API, as the console would mark it.
    const rita = await app.api('retailer');
    const earlier = (await rita.notifications()).find((n) => n.summary === 'Node 2001 went offline');
    expect(earlier).toBeDefined();
    await rita.markNotificationRead(earlier!.id);

    const page = await app.page();
    // The page's timers run on a clock the test can move (below), in real time until then.
    await page.clock.install();
    await signIn(page, 'retailer', 'Rita');
    const bell = page.getByRole('link', { name: /Unread/ });
    await shown(page.getByRole('link', { name: /2 Unread/ }));
    await bell.click();
    await page.waitForURL('**/user/notifications');
    const table = page.getByRole('table', { name: 'Notifications' });
    await shown(table.getByRole('columnheader', { name: 'Mark as read' }));
    await shown(table.getByText(/^Today, /).first());
    await shown(table.getByText(/^Yesterday, |^\w+day \d+ \w+ \d{4}, /));

    await table.getByRole('link', { name: 'Node 1042 went offline' }).click();
    await shown(page.getByRole('heading', { name: 'Node 1042 went offline' }));
    await shown(page.locator('strong', { hasText: 'stopped reporting' }));
    expect(await page.locator('main b', { hasText: 'not html' }).count()).toBe(0);
    // Marked read after about a second.
    await shown(page.getByRole('button', { name: 'Mark as Unread' }), 5000);
    await shown(page.getByRole('link', { name: /1 Unread/ }));
    const markedRead: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/mark-read')) markedRead.push(r.url());
    });
    await page.getByRole('button', { name: 'Mark as Unread' }).click();
    await shown(page.getByRole('link', { name: /2 Unread/ }));
    await gone(page.getByRole('button', { name: 'Mark as Unread' }));
    // Moves the page's clock past the auto-read delay at once: opened once, it is not marked read again.
    await page.clock.runFor(NOTIFICATION_AUTO_READ_MS * 2);
    await shown(page.getByRole('link', { name: /2 Unread/ }));
    expect(markedRead).toEqual([]);
    await page.clock.resume();

    await page.goto('/user/notifications');
    await page.getByRole('button', { name: 'Mark all as Read' }).click();
    await shown(page.getByRole('link', { name: /0 Unread/ }));
    await eventually(() => page.getByRole('columnheader', { name: 'Mark as read' }).count()).toBe(0);
  });
});
