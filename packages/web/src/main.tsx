// The login page's styles only; the rest of the app's load with what draws beyond it (lib/styles.ts).
import './lib/login-styles.css';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, startTransition, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { startSession } from './app/root.tsx';
import { AppRoutes, handlesAt } from './app/router.tsx';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { startVersionChecker } from './app/version-checker.ts';
import { startAnalytics } from './lib/analytics.ts';
import { queryClient } from './lib/query-client.ts';
import { applyLoginStyles, loadAppStyles } from './lib/styles.ts';

const Notifications = lazy(async () => {
  const [{ Notifications }] = await Promise.all([import('./app/toaster.tsx'), loadAppStyles()]);
  return { default: Notifications };
});

/**
 * The toasts' container, loaded with the first toast (issue 30: the login page rarely shows one), and
 * kept from then on so that toasts leave with their transition. Toasts shown before it has loaded
 * wait in the store.
 */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const wanted = useRef(false);
  if (notifications.length + queue.length > 0) wanted.current = true;
  if (!wanted.current) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="bottom-right" />
    </Suspense>
  );
}

let started = false;

// A stored session's account, shell and page start loading now, beside the first render rather than after it.
startSession(handlesAt(window.location.pathname));

/**
 * The version checks (with the service worker) and analytics start once the app has committed its
 * first render, in a task of their own (issue 30): both fetch /meta.json and parse it with zod,
 * which they load, and on a phone's CPU that work held up the login page's first render.
 */
function StartBackground() {
  useEffect(() => {
    if (started) return;
    started = true;
    setTimeout(() => {
      startVersionChecker();
      void startAnalytics();
    });
  }, []);
  return null;
}

// The first render as a transition: React renders the app in slices of a few milliseconds, yielding
// between them, rather than in one task that holds the page (a phone's slower CPU, issue 30); the
// first paint of index.html stays until the app commits, in one piece.
const render = () => {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  startTransition(() =>
    root.render(
      <StrictMode>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
          <Toasts />
          <StartBackground />
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </QueryClientProvider>
        </MantineProvider>
      </StrictMode>,
    ),
  );
};
void applyLoginStyles().then(render);
