import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { type Location, Outlet, useLocation } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader.tsx';
import { bootSession, LoginPanel } from '../features/auth/index.ts';
import { session, useSession } from '../lib/session.ts';
import { loadAppStyles } from '../lib/styles.ts';
import { LoginShell } from './login-shell.tsx';

// The signed-in shell (header, sidebar, menus) is not needed to log in: it loads while the user
// fills in the login form, or at once when a stored session is resumed, with the app's styles.
const loadMainShell = () => Promise.all([import('./main-shell.tsx'), loadAppStyles()]).then(([m]) => m);
const MainShell = lazy(async () => ({ default: (await loadMainShell()).MainShell }));
const preloadMainShell = () => void loadMainShell().catch(() => undefined);

let booted = false;

/** What the router's table says of a route (router.tsx). */
export type RouteHandle = { public?: boolean; preload?: () => Promise<unknown> } | undefined;

/**
 * Chooses the shell: public pages and the login panel in the login shell, the rest in the main
 * shell. `handlesAt` gives what the table says of the routes at a location (router.tsx).
 */
export function Root({ handlesAt }: { handlesAt: (location: Location) => RouteHandle[] }) {
  const { loginStatus } = useSession();
  const location = useLocation();
  const matches = useMemo(() => handlesAt(location), [handlesAt, location]);
  const isPublic = matches.some((m) => m?.public);
  useEffect(() => {
    if (!booted) {
      booted = true;
      if (session.token()) {
        // A stored session: the main shell and the page opened load beside the account's call.
        preloadMainShell();
        for (const m of matches) void m?.preload?.();
      }
      void bootSession();
    }
  }, [matches]);

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
