import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account } from '@vpp/shared/account/schemas';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { cssVariablesResolver, theme } from '../app/theme.ts';
import { accountQueryOptions } from '../lib/account.ts';
import { queryClient } from '../lib/query-client.ts';

/** A signed-in account for tests: every field the screens read, with the permissions given. */
export function testAccount(permissions: string[], patch: Partial<Account> = {}): Account {
  return {
    id: 1,
    username: 'rita',
    name: 'Rita Retailer',
    givenName: 'Rita',
    surname: 'Retailer',
    email: 'rita@example.test',
    timezone: 'Australia/Sydney',
    suborg_type: 'RETAILER',
    suborg_name: 'Sunny Energy',
    alertEmailFrequency: 'NEVER',
    mfaEnabled: false,
    permissions,
    ...patch,
  } as Account;
}

/**
 * Renders `ui` as the app does (Mantine with its toasts, the one query cache, a router at `url`
 * matching `path`), optionally signed in as `account`. Returns Testing Library's queries, a
 * user-event session and the router (its location shows what the URL became).
 */
export function renderScreen(ui: ReactNode, opts: { url?: string; path?: string; account?: Account } = {}) {
  if (opts.account) queryClient.setQueryData(accountQueryOptions.queryKey, opts.account);
  const router = createMemoryRouter([{ path: opts.path ?? '*', element: ui }], { initialEntries: [opts.url ?? '/'] });
  const user = userEvent.setup();
  const result = render(
    // env="test": no transitions and no portals, so that menus and option lists are found at once.
    <MantineProvider env="test" theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, user, router };
}

/** Answers the request layer's fetch calls from a table of path → JSON body (404 for anything else); returns the calls made. */
export function stubFetch(replies: Record<string, unknown>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetch = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ method: init.method ?? 'GET', url: `${url.pathname}${url.search}`, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const reply = replies[url.pathname];
    return new Response(JSON.stringify(reply ?? { status: 'ERROR', message: 'Not found' }), {
      status: reply === undefined ? 404 : 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, calls };
}
