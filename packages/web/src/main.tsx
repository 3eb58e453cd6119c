import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './app/router.tsx';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { startVersionChecker } from './app/version-checker.ts';
import { startAnalytics } from './lib/analytics.ts';
import { queryClient } from './lib/query-client.ts';

const Notifications = lazy(async () => ({ default: (await import('./app/toaster.tsx')).Notifications }));

/**
 * Applies the app's stylesheet, which index.html only preloads (its first paint needs none of it:
 * vite.config.ts), and resolves once it has loaded. In development Vite adds the styles itself.
 */
function appStyles(): Promise<void> {
  const preload = document.querySelector<HTMLLinkElement>('link[data-app-styles]');
  if (!preload) return Promise.resolve();
  return new Promise((resolve) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.crossOrigin = preload.crossOrigin;
    sheet.href = preload.href;
    sheet.onload = () => resolve();
    // A stylesheet that fails to load leaves the app usable, if plain.
    sheet.onerror = () => resolve();
    document.head.append(sheet);
  });
}

const router = createAppRouter();

startVersionChecker();
void startAnalytics();

const render = () =>
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Suspense fallback={null}>
          <Notifications position="bottom-right" />
        </Suspense>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
void appStyles().then(render);
