// The dashboard's layout call, apart from the widgets' (api.ts): the app opened at the dashboard loads
// this small module beside the account's call, before the page's (issue 30 item 2).
import { dashboardEndpoints as D } from '@vpp/shared/dashboard/endpoints';
import { type Dashboard, dashboardSchema } from '@vpp/shared/dashboard/layout';
import { accountQueryOptions } from '../../lib/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { call } from '../../lib/request.ts';
import { session } from '../../lib/session.ts';

export const dashboardKeys = {
  layout: ['dashboard', 'layout'] as const,
  ticker: ['dashboard', 'ticker'] as const,
  totals: ['dashboard', 'totals'] as const,
  map: ['dashboard', 'map'] as const,
  vpps: ['dashboard', 'vpps'] as const,
  latest: (vpp: number, metric: string) => ['dashboard', 'latest', vpp, metric] as const,
  series: (vpp: number | string, metric: string, start: number) => ['dashboard', 'series', vpp, metric, start] as const,
};

/** Where the browser keeps a user's dashboard as last loaded or saved, to paint the grid before the server answers. */
const keptLayoutKey = (user: number) => `vpp.dashboard.${user}`;

/** The user's dashboard as this browser last had it (issue 30: the grid paints from it before any data), if it still reads as one. */
export function keptLayout(user: number | undefined): Dashboard | undefined {
  if (user === undefined) return undefined;
  try {
    const parsed = dashboardSchema.safeParse(JSON.parse(localStorage.getItem(keptLayoutKey(user)) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the user's dashboard for the next visit (a full or private store only loses the head start). */
export function keepLayout(user: number | undefined, dashboard: Dashboard): void {
  if (user === undefined) return;
  try {
    localStorage.setItem(keptLayoutKey(user), JSON.stringify(dashboard));
  } catch {
    // Nothing kept: the next visit waits for the server's layout, as the first one did.
  }
}

/** The user's dashboard from the server, kept in this browser for the signed-in user's next visit. */
export async function fetchLayout(): Promise<Dashboard> {
  const d = (await call(D.getLayout, {})).data;
  keepLayout(queryClient.getQueryData(accountQueryOptions.queryKey)?.id, d);
  return d;
}

/** Whether the session being resumed at start enters the app (the account loaded), once it is known. */
const resumed = () =>
  new Promise<boolean>((resolve) => {
    const check = () => {
      const { loginStatus } = session.get();
      if (loginStatus === 'FETCHING') return;
      stop();
      resolve(loginStatus === 'LOGGED_IN');
    };
    const stop = session.subscribe(check);
    check();
  });

/**
 * The app opened at the dashboard with a stored session: its layout is asked as soon as the account
 * has loaded (issue 30 item 2), not after the shell and the page have rendered too. A refused or
 * unfinished session asks nothing.
 */
export async function prefetchDashboardLayout(): Promise<void> {
  if (await resumed()) await queryClient.prefetchQuery({ queryKey: dashboardKeys.layout, queryFn: fetchLayout, staleTime: Number.POSITIVE_INFINITY });
}
