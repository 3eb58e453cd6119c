// Notifications in Chromium: the header bell, the list with its dates, a detail that marks itself
// read, Mark as Unread, and Mark all as Read.
import { NOTIFICATION_MESSAGES } from '@vpp/shared';
import { describe, expect, it } from 'vitest';
import { addNotifications, shown, useAccountApp } from './account-helpers.ts';

const app = useAccountApp();

describe('notifications', () => {
  it('says when there are none', async () => {
    const page = await app.signedIn('installer');
    await shown(page.getByRole('link', { name: /0 Unread/ }));
    await page.goto('/user/notifications');
    await shown(page.getByText(NOTIFICATION_MESSAGES.empty));
  });

  it('reads, unreads and marks all read', async () => {
    addNotifications(app.server(), 'retailer', [
      { summary: 'Node 1042 went offline', body: 'It **stopped reporting** at 09:12.\n\n<b>not html</b>', ageS: 600 },
      { summary: 'Node 1042 is back online', body: 'Reporting again.', ageS: 300 },
      { summary: 'Node 2001 went offline', body: 'Earlier.', ageS: 86400 + 3600, read: true },
    ]);
    const page = await app.signedIn('retailer');
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
    await page.getByRole('button', { name: 'Mark as Unread' }).click();
    await shown(page.getByRole('link', { name: /2 Unread/ }));
    await page.waitForTimeout(1500);
    await shown(page.getByRole('link', { name: /2 Unread/ }));

    await page.goto('/user/notifications');
    await page.getByRole('button', { name: 'Mark all as Read' }).click();
    await shown(page.getByRole('link', { name: /0 Unread/ }));
    await expect.poll(() => page.getByRole('columnheader', { name: 'Mark as read' }).count()).toBe(0);
  });
});
