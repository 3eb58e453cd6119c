import type { Dashboard } from '@vpp/shared/dashboard/layout';
import { afterEach, expect, it, vi } from 'vitest';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';
import { testAccount } from '../../test/render.tsx';
import { dashboardKeys, prefetchDashboardLayout } from './get-layout.ts';

const saved: Dashboard = {
  widgets: [{ widgetId: 'SINGLE_STAT', layout: { x: 0, y: 0, w: 1, h: 2 }, settings: { metric: 'commissioned', powerstation: null } }],
  isDefault: false,
};

/** Answers the layout's call with `saved`; returns the paths asked. */
function layoutServer() {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://console').pathname;
      asked.push(path);
      return new Response(JSON.stringify({ status: 'OK', data: saved }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return asked;
}

afterEach(() => {
  session.reset();
  localStorage.clear();
});

it('asks the layout as soon as the resumed session has its account, and keeps it for the next visit', async () => {
  const asked = layoutServer();
  session.set({ loginStatus: 'FETCHING' });
  const prefetch = prefetchDashboardLayout();
  // Still booting: nothing asked yet.
  await Promise.resolve();
  expect(asked).toEqual([]);
  queryClient.setQueryData(accountQueryOptions.queryKey, testAccount([], { id: 7 }));
  session.set({ loginStatus: 'LOGGED_IN' });
  await prefetch;
  expect(asked).toEqual(['/account/dashboard']);
  expect(queryClient.getQueryData(dashboardKeys.layout)).toEqual(saved);
  expect(JSON.parse(localStorage.getItem('vpp.dashboard.7') ?? 'null')).toEqual(saved);
});

it('asks nothing when the resumed session ends at the login (refused or expired)', async () => {
  const asked = layoutServer();
  session.set({ loginStatus: 'FETCHING' });
  const prefetch = prefetchDashboardLayout();
  session.reset({ expired: true });
  await prefetch;
  expect(asked).toEqual([]);
  expect(queryClient.getQueryData(dashboardKeys.layout)).toBeUndefined();
});
