import { Suspense } from 'react';
import { createBrowserRouter } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader.tsx';
import type { AreaRoute } from '../lib/routes.tsx';
import { LoginShell } from './login-shell.tsx';
import { PageGuard } from './page-guard.tsx';
import { Root } from './root.tsx';
import { ROUTES } from './routes.tsx';

/** A route's element: a lazy public page in the login shell's panel; a signed-in page waits in the main shell's Suspense (Root). */
function elementOf(r: AreaRoute) {
  if (!r.page) return r.element;
  const Page = r.page;
  if (!r.public && r.permission) {
    return (
      <PageGuard permission={r.permission} title={r.title ?? r.nav?.label ?? ''}>
        <Page />
      </PageGuard>
    );
  }
  if (!r.public) return <Page />;
  return (
    <LoginShell>
      <Suspense fallback={<DelayedLoader minHeight={120} />}>
        <Page />
      </Suspense>
    </LoginShell>
  );
}

/** The app's router: every route of the table under the Root, which chooses the shell. */
export const createAppRouter = () =>
  createBrowserRouter([
    {
      element: <Root />,
      children: ROUTES.map((r) => ({ path: r.path, element: elementOf(r), handle: { public: r.public ?? false, preload: r.page?.preload } })),
    },
  ]);
