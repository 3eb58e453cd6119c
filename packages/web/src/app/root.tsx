import { Center, Loader } from '@mantine/core';
import { Suspense, useEffect, useMemo } from 'react';
import { type Location, Outlet, useLocation } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader.tsx';
import { bootSession, LoginPanel } from '../features/auth/index.ts';
import { loadAccountContract } from '../lib/account.ts';
import { lazyLoaded } from '../lib/routes.tsx';
import { session, useSession } from '../lib/session.ts';
import { loadAppStyles } from '../lib/styles.ts';
import { LoginShell } from './login-shell.tsx';

// The signed-in shell (header, sidebar, menus) is not needed to log in: it loads while the user
// fills in the login form, or at once when a stored session is resumed, with the app's styles.
const shell = lazyLoaded(
  () => Promise.all([import('./main-shell.tsx'), loadAppStyles()]).then(([m]) => m),
  (m) => m.MainShell,
);
const MainShell = shell.component;
const preloadMainShell = () => void shell.load().catch(() => undefined);

let booted = false;

/** What the router's table says of a route (router.tsx). */
export type RouteHandle = { public?: boolean; preload?: () => Promise<unknown> } | undefined;

/**
 * Resumes a stored session, once: the account's call starts, and beside it the main shell and the
 * modules (and what else a route's `preload` asks) of the page opened. main.tsx calls it as the
 * scripts start, before the first render (issue 30 item 2); the Root's first effect otherwise.
 */
export function startSession(handles: readonly RouteHandle[]) {
  if (booted) return;
  booted = true;
  const stored = session.token();
  void bootSession();
  if (!stored) return;
  // The browser asks a few files of a host at a time: the account's contract and call go first, the
  // modules (dozens of files) once the call is on its way (a task after the contract has loaded).
  const preload = () => {
    for (const h of handles) void h?.preload?.();
    preloadMainShell();
  };
  void loadAccountContract().then(
    () => setTimeout(preload),
    () => preload(),
  );
}

/**
 * Chooses the shell: public pages and the login panel in the login shell, the rest in the main
 * shell. `handlesAt` gives what the table says of the routes at a location (router.tsx).
 */
export function Root({ handlesAt }: { handlesAt: (location: Location) => RouteHandle[] }) {
  const { loginStatus } = useSession();
  const location = useLocation();
  const matches = useMemo(() => handlesAt(location), [handlesAt, location]);
  const isPublic = matches.some((m) => m?.public);
  useEffect(() => startSession(matches), [matches]);

  if (isPublic) return <Outlet />;
  if (loginStatus === 'FETCHING') {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (loginStatus !== 'LOGGED_IN') {
    return (
      <LoginShell title="Log in">
        <div onFocusCapture={preloadMainShell}>
          <LoginPanel />
        </div>
      </LoginShell>
    );
  }
  return (
    <Suspense fallback={<DelayedLoader minHeight="100vh" />}>
      <MainShell>
        <Suspense fallback={<DelayedLoader minHeight="60vh" />}>
          <Outlet />
        </Suspense>
      </MainShell>
    </Suspense>
  );
}
