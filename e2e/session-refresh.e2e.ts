// Two tabs of one browser share the session (token and refresh cookie): the background refresh must
// not sign either of them out.
import { describe, expect, it } from 'vitest';
import { eventually, shown, signIn, useApp } from './support/fixtures.ts';

// A 302-second access token: the refresh, 300 s before expiry, comes about 2 s after each new token.
const app = useApp({ ACCESS_TOKEN_TTL_S: '302' });

const SESSION_EXPIRED = 'Your session has expired. Please log in again.';

describe('the background token refresh', () => {
  it('keeps two tabs signed in through several refreshes, one tab refreshing at a time', async () => {
    const first = await app.page();
    await signIn(first, 'retailer', 'Rita');
    const second = await first.context().newPage();
    await second.goto('/');
    await shown(second.getByRole('heading', { name: 'Welcome, Rita' }));

    const refreshes: number[] = [];
    first.context().on('response', (res) => {
      if (new URL(res.url()).pathname === '/auth/refresh/') refreshes.push(res.status());
    });
    // About one refresh every 2 s: wait for several, none of them refused as a replayed cookie.
    await eventually(() => refreshes.length, 20_000).toBeGreaterThanOrEqual(3);
    expect(refreshes.every((status) => status === 200)).toBe(true);

    // Both tabs still reach the API with the session (a reload could cut off a refresh mid-flight).
    for (const page of [first, second]) {
      expect(await page.getByText(SESSION_EXPIRED).count()).toBe(0);
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' }).click();
      await shown(page.getByRole('link', { name: 'Oscar Operator' }));
    }
  });
});
